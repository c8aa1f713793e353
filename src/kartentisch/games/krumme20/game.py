"""The Krumme20 game description: player counts, typed options, and the protocol's factories."""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final

from kartentisch.core.documents import Document
from kartentisch.core.errors import InvalidOptionsError
from kartentisch.core.protocol import Game, GameSpec
from kartentisch.core.reasons import Reasons
from kartentisch.games.krumme20 import actions as acts
from kartentisch.games.krumme20.documents import K20ObservationDocument, K20PositionDocument
from kartentisch.games.krumme20.observation import K20Observation
from kartentisch.games.krumme20.observation import sample_world as _sample_world
from kartentisch.games.krumme20.options import K20Options
from kartentisch.games.krumme20.position import state_from_json
from kartentisch.games.krumme20.reasons import REASONS
from kartentisch.games.krumme20.rollout import rollout_action as _rollout_action
from kartentisch.games.krumme20.search import SEARCH_DEFAULTS
from kartentisch.games.krumme20.search import evaluate as _evaluate
from kartentisch.games.krumme20.search import search_candidates as _search_candidates
from kartentisch.games.krumme20.state import K20State
from kartentisch.games.krumme20.teams import ALLOWED_PLAYERS, team_seats

_ACTIONS: Final = acts.ACTIONS
_BY_IDENTITY: Final[dict[int, int]] = {id(a): i for i, a in enumerate(_ACTIONS)}
"""The id of each shared action object by its identity (the objects live as long as ACTIONS)."""
_BY_NOTATION: Final[dict[str, int]] = {acts.format_action(a): i for i, a in enumerate(_ACTIONS)}
"""Every action's id by its canonical notation (what records hold): found by one lookup."""
_DEFAULTS: Final = K20Options()
"""The options' defaults (the team options are refused away from their default alone)."""
_OWN_CARD = re.compile(r"^(flip|drehen)\s+h\s*(\d+)$")
"""``flip h2``: the mover's own personal card 2."""


class Krumme20(Game[K20State, acts.Action, K20Observation]):
    """Krumme20 with the advanced rules (sheet 2/3) for 2-6 players."""

    spec: ClassVar[GameSpec] = GameSpec(
        name="krumme20", title="Krumme20", min_players=2, max_players=6,
        default_players=3, zero_sum=False, min_utility=0.0, max_utility=1.0)
    options_type: ClassVar[type[Any]] = K20Options
    options: K20Options
    search_defaults: ClassVar[Mapping[str, Mapping[str, Any]]] = SEARCH_DEFAULTS
    """The search bots' default parameters for this game."""
    reasons: ClassVar[Reasons] = REASONS
    position_document: ClassVar[type[Document]] = K20PositionDocument
    """The type of ``state.to_json()`` (read by :meth:`state_from_json`)."""
    observation_document: ClassVar[type[Document]] = K20ObservationDocument
    """The type of ``state.observation(seat).to_json()``."""

    def validate_options(self) -> None:
        if self.options.turn_limit < 0:
            raise InvalidOptionsError(
                "option 'turn_limit' must be 0 (none) or more turns",
                code="options.bad_choice",
                params={"name": "turn_limit", "value": self.options.turn_limit,
                        "allowed": "0, 1, 2, ..."})
        self._validate_teams()

    def _validate_teams(self) -> None:
        """The team variant's player counts; its other options only with teams."""
        mode = self.options.teams
        if mode != "none":
            allowed = ALLOWED_PLAYERS[mode]
            if self.players not in allowed:
                raise REASONS.error(
                    InvalidOptionsError, "k20.team_players", value=mode,
                    allowed=", ".join(str(k) for k in allowed), players=self.players)
            return
        for name in ("team_targets", "team_foul_reward"):
            if getattr(self.options, name) != getattr(_DEFAULTS, name):
                raise REASONS.error(InvalidOptionsError, "k20.team_option_alone", name=name)

    def teams(self) -> tuple[tuple[int, ...], ...]:
        """The seats of each team (``()`` when everybody plays alone); see :mod:`.teams`."""
        return team_seats(self.options.teams, self.players)

    def create_state(self, seed: int) -> K20State:
        return K20State(self, seed)

    def sample_world(self, observation: K20Observation, rng: random.Random) -> K20State:
        return _sample_world(self, observation, rng)

    @property
    def num_distinct_actions(self) -> int:
        return acts.NUM_ACTIONS

    def action_to_id(self, action: acts.Action) -> int:
        return acts.action_id(action)

    def action_from_id(self, action_id: int) -> acts.Action:
        return acts.action_from_id(action_id)

    def checked_action_id(self, action: object) -> int:
        # Fast path for the engine's own shared action objects (what legal_actions hands
        # out): found by identity, which needs no call of the dataclass's Python-level
        # __hash__; the identity check guards against a reused id(). Anything else gets the
        # full check by value.
        aid = _BY_IDENTITY.get(id(action))
        if aid is not None and _ACTIONS[aid] is action:
            return aid
        return acts.checked_action_id(action)

    def format_action(self, action: acts.Action, state: K20State | None = None) -> str:
        return acts.format_action(action)

    def parse_action(self, text: str, state: K20State) -> acts.Action:
        """Read a move for the player to act in ``state``.

        The notation and its German words are read (see :mod:`.actions`). Shortcuts: a bare
        number ``2`` means ``p2`` when a card must be played; ``h2`` in ``flip h2`` (``drehen
        h2``) means the mover's own personal card 2. A move that is not legal now raises the
        state's coded :meth:`~K20State.why_illegal` error.
        """
        state.check_actor(None)  # a finished game takes no move, whatever the text says
        # The canonical notation (a record's, a bot's) by one lookup; anything else, and an
        # illegal move (for its coded error), goes the long way.
        aid = _BY_NOTATION.get(text) if type(text) is str else None
        if aid is not None and state.is_legal_id(aid):
            return _ACTIONS[aid]
        cleaned = " ".join(text.strip().lower().split()) if isinstance(text, str) else text
        seat = state.current_player
        if isinstance(cleaned, str):
            if cleaned.isdigit() and state.phase == "turn":
                cleaned = "p" + cleaned
            if (m := _OWN_CARD.match(cleaned)) and seat >= 0:
                cleaned = f"{m.group(1)} {seat}:{m.group(2)}"
        parsed = acts.parse_notation(cleaned)
        aid = acts.checked_action_id(parsed)
        if not state.is_legal_id(aid):
            raise state.why_illegal(parsed)
        return acts.ACTIONS[aid]

    def state_from_json(self, document: Mapping[str, Any]) -> K20State:
        return state_from_json(self, document)

    def evaluate(self, state: K20State) -> list[float]:
        """Expected returns of ``state`` for search playouts cut short (see ``search``)."""
        return _evaluate(state)

    def rollout_action(self, state: K20State, ids: Sequence[int], rng: random.Random) -> int:
        """The search playouts' fast heuristic-like policy (rollout ``"game"``)."""
        return _rollout_action(state, ids, rng)

    def search_candidates(self, observation: K20Observation,
                          ids: Sequence[int]) -> list[int] | None:
        """The actions worth a search (``None``: all); see ``search.TRUSTED_PHASES``."""
        return _search_candidates(self, observation, ids)
