"""The words of the bot choices added with issue 29: the learned bot and the trivial
baseline, as the lobby's and the host's seat menus name them.

Listed for the extractor only (see the package's docstring).
"""

from __future__ import annotations

from typing import Final

from kartentisch.core.reasons import N_

BOT_MESSAGES: Final = (
    N_("learned bot (fast, trained network)"),
    N_("first-legal bot (always the first allowed move)"),
)
