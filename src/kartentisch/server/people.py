"""What people at a table say about themselves and to each other: names, chat, reactions.

All of it is untrusted text from a browser. The checks here make it harmless and short:
a display name keeps only letters, digits, marks, spaces and a few punctuation marks; a chat
line has no control or format characters (no bidirectional overrides that would turn other
lines around); both are NFC-normalised and trimmed. The page renders both as text only.
A :class:`Bucket` per connection limits how fast anyone can chat.

Importing this module is cheap (the standard library and the reason tables).
"""

from __future__ import annotations

import time
import unicodedata
from collections.abc import Callable
from typing import Final

from kartentisch.server.limits import TokenBucket
from kartentisch.server.protocol import ProtocolError
from kartentisch.server.reasons import NIGHT_REASONS

NAME_MAX: Final = 24
"""The longest display name, in characters (after trimming)."""

NAME_PUNCTUATION: Final = frozenset(".-_'(),")
"""The punctuation a display name may contain beside letters, digits, marks and spaces."""

CHAT_MAX: Final = 300
"""The longest chat line, in characters (after trimming)."""

REACTIONS: Final = ("thumbs_up", "clap", "laugh", "wow", "think", "oops", "gg", "wave")
"""The quick reactions, by key (the page shows each as a symbol with a German and an
English label)."""

CHAT_BURST: Final = 5
"""Chat lines and reactions one connection may send at once ..."""

CHAT_REFILL_SECONDS: Final = 2.0
"""... and then one more every this many seconds."""

JOINERS: Final = frozenset("\u200c\u200d")
"""The two format characters a chat line may hold: the zero-width (non-)joiner that emoji
sequences and some scripts need. Every other one (the bidirectional overrides above all,
which would turn the following lines around) is refused."""

HISTORY: Final = 100
"""How many of the table's latest log entries the welcome message carries."""


def night_error(code: str, /, **params: object) -> ProtocolError:
    """The :class:`ProtocolError` with one of :data:`NIGHT_REASONS`."""
    return NIGHT_REASONS.error(ProtocolError, code, **params)


def _collapse(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).split())


def clean_name(text: str) -> str:
    """``text`` as a display name: NFC, trimmed, inner whitespace collapsed to one space;
    raises ``name.invalid`` (with a ``detail`` that says what is allowed) otherwise.

    >>> clean_name("  Anna   Lena ")
    'Anna Lena'
    >>> clean_name("<b>")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    kartentisch.server.protocol.ProtocolError: ...
    """
    name = _collapse(text)
    if not name:
        raise night_error("name.invalid", detail="a name has at least one letter or digit")
    if len(name) > NAME_MAX:
        raise night_error("name.invalid", detail=f"a name has at most {NAME_MAX} characters")
    for char in name:
        category = unicodedata.category(char)
        if char == " " or char in NAME_PUNCTUATION or category[0] in "LMN":
            continue
        raise night_error("name.invalid", detail=(
            "letters, digits, spaces and . - _ ' ( ) , only; not "
            + (repr(char) if char.isprintable() else f"U+{ord(char):04X}")))
    if not any(unicodedata.category(c)[0] in "LN" for c in name):
        raise night_error("name.invalid", detail="a name has at least one letter or digit")
    return name


def clean_chat(text: str) -> str:
    """``text`` as a chat line: NFC, trimmed, every run of whitespace (line breaks too)
    one space, no control or format characters; ``chat.empty`` or ``chat.too_long``
    otherwise (``chat.bad_character`` for a control character)."""
    line = _collapse(text)
    if not line:
        raise night_error("chat.empty")
    if len(line) > CHAT_MAX:
        raise night_error("chat.too_long", limit=CHAT_MAX, length=len(line))
    for char in line:
        if char not in JOINERS and unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn"):
            raise night_error("chat.bad_character", code=f"U+{ord(char):04X}")
    return line


class Bucket(TokenBucket):
    """The chat's token bucket (:class:`~kartentisch.server.limits.TokenBucket`, shared with
    the server's other limits): ``burst`` at once, then one more every ``refill`` seconds."""

    def __init__(self, burst: int = CHAT_BURST, refill: float = CHAT_REFILL_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(float(burst), 1.0 / refill, clock)


__all__ = ["CHAT_MAX", "HISTORY", "NAME_MAX", "REACTIONS", "Bucket", "clean_chat",
           "clean_name", "night_error"]
