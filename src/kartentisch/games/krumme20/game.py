"""The Krumme20 game description: player counts, typed options, and the protocol's factories."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from kartentisch.core.errors import IllegalActionError, InvalidOptionsError
from kartentisch.core.protocol import Game, GameSpec
from kartentisch.games.krumme20 import actions as acts
from kartentisch.games.krumme20.cards import DECKS
from kartentisch.games.krumme20.observation import K20Observation
from kartentisch.games.krumme20.observation import sample_world as _sample_world
from kartentisch.games.krumme20.position import state_from_json
from kartentisch.games.krumme20.rollout import rollout_action as _rollout_action
from kartentisch.games.krumme20.search import SEARCH_DEFAULTS
from kartentisch.games.krumme20.search import evaluate as _evaluate
from kartentisch.games.krumme20.search import search_candidates as _search_candidates
from kartentisch.games.krumme20.state import K20State


@dataclass(frozen=True, slots=True)
class K20Options:
    """Rules options. Every field is a point the advanced rules sheet leaves open (ASSUMED).

    The defaults are the reconstruction documented in ``docs/rules/krumme20.md``.
    """

    deck: str = field(default="pairs", metadata={"choices": DECKS})
    """``pairs``: every pair of 0-5, doubles 4x, mixed 2x; ``doubles``: both sides equal."""
    target: int = field(default=20, metadata={"choices": (10, 15, 20, 25, 30)})
    """The total that scores (the base game used 10). The second card is played on
    ``target - 5`` and Σ claims must sum to ``target``."""
    play_flips: bool = True
    """A played (or thrown) card is turned over and counts by its former down side."""
    second_five: str = field(default="any", metadata={"choices": ("any", "after_five")})
    """``any``: after any play that leaves the total at 15 (the sheet's example);
    ``after_five``: only when the card just played was a 5."""
    foul_keeps_action: bool = False
    """Whether a play that is a foul still grants its special action."""
    peek_own: bool = False
    """Whether a player knows the down sides of cards that came into their personal cards."""
    draw_top_visible: bool = True
    """Whether the up side of the draw pile's top card is seen by everybody."""
    end: str = field(default="final_lap", metadata={"choices": ("final_lap", "immediate")})
    """When the draw pile runs out: one more turn each (``final_lap``), or the game ends
    with the current turn (``immediate``)."""
    turn_limit: int = 200
    """After this many turns the final lap begins even if cards remain (0: no limit).
    A safeguard: actions can bring cards back, so play is not bounded otherwise."""


class Krumme20(Game[K20State, acts.Action, K20Observation]):
    """Krumme20 with the advanced rules (sheet 2/3) for 2-6 players."""

    spec: ClassVar[GameSpec] = GameSpec(
        name="krumme20", title="Krumme20", min_players=2, max_players=6,
        default_players=3, zero_sum=False, min_utility=0.0, max_utility=1.0)
    options_type: ClassVar[type[Any]] = K20Options
    options: K20Options
    search_defaults: ClassVar[Mapping[str, Mapping[str, Any]]] = SEARCH_DEFAULTS
    """The search bots' default parameters for this game."""

    def validate_options(self) -> None:
        if self.options.turn_limit < 0:
            raise InvalidOptionsError("option 'turn_limit' must be 0 (none) or more turns")

    def new_initial_state(self, seed: int) -> K20State:
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

    def format_action(self, action: acts.Action, state: K20State | None = None) -> str:
        return acts.format_action(action)

    def parse_action(self, text: str, state: K20State) -> acts.Action:
        """Read a move for the player to act in ``state``.

        Shortcuts: a bare number ``2`` means ``p2`` when a card must be played; ``h2`` in
        ``flip h2`` means the mover's own personal card 2.
        """
        cleaned = " ".join(text.strip().lower().split())
        seat = state.current_player
        if cleaned.isdigit() and state.phase == "turn":
            cleaned = "p" + cleaned
        if cleaned.startswith("flip h") and seat >= 0:
            cleaned = f"flip {seat}:{cleaned[6:].strip()}"
        parsed = acts.parse_notation(cleaned if cleaned != text else text)
        if parsed not in state.legal_actions():
            raise IllegalActionError(state.explain_illegal(parsed))
        return parsed

    def state_from_json(self, document: Mapping[str, Any]) -> K20State:
        return state_from_json(document)

    def evaluate(self, state: K20State) -> list[float]:
        """Expected returns of ``state`` for search playouts cut short (see ``search``)."""
        return _evaluate(state)

    def rollout_action(self, state: K20State, ids: Sequence[int], rng: random.Random) -> int:
        """The search playouts' fast heuristic-like policy (rollout ``"game"``)."""
        return _rollout_action(state, ids, rng)

    def search_candidates(self, observation: K20Observation, ids: list[int]) -> list[int] | None:
        """The actions worth a search (``None``: all); see ``search.TRUSTED_PHASES``."""
        return _search_candidates(self, observation, ids)
