"""The Krass Kariert game description: player counts, options, and the protocol's factories."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final

from kartentisch.core.documents import Document
from kartentisch.core.errors import (
    AmbiguousActionError,
    GameOverError,
    InvalidOptionsError,
)
from kartentisch.core.protocol import Game, GameSpec
from kartentisch.core.reasons import Reasons
from kartentisch.games.krass_kariert import actions as acts
from kartentisch.games.krass_kariert import batch, rollout, search
from kartentisch.games.krass_kariert.cards import X, card_name
from kartentisch.games.krass_kariert.observation import KKObservation
from kartentisch.games.krass_kariert.observation import sample_world as _sample_world
from kartentisch.games.krass_kariert.options import KKOptions
from kartentisch.games.krass_kariert.position import (
    KKObservationDocument,
    KKPositionDocument,
    state_from_json,
)
from kartentisch.games.krass_kariert.reasons import REASONS, error, message
from kartentisch.games.krass_kariert.state import OVER, KKState

_NOTATION_IDS: Final[dict[str, int]] = {acts.format_action(a): i
                                         for i, a in enumerate(acts.ACTIONS)}
"""Every action's canonical notation -> its id (what records hold; see ``parse_action``)."""
assert len(_NOTATION_IDS) == acts.NUM_ACTIONS



class KrassKariert(Game[KKState, acts.Action, KKObservation]):
    """Krass Kariert for 3-5 players."""

    spec: ClassVar[GameSpec] = GameSpec(
        name="krass-kariert",
        title="Krass Kariert",
        min_players=3,
        max_players=5,
        default_players=4,
        zero_sum=True,
        min_utility=-1.0,
        max_utility=4.0,
    )
    options_type: ClassVar[type[Any]] = KKOptions
    options: KKOptions
    reasons: ClassVar[Reasons] = REASONS
    position_document: ClassVar[type[Document]] = KKPositionDocument
    """The position document's type (``state.to_json()``), for the JSON Schema."""
    observation_document: ClassVar[type[Document]] = KKObservationDocument
    """The observation document's type (``observation(seat).to_json()``)."""
    search_defaults: ClassVar[Mapping[str, Mapping[str, Any]]] = search.SEARCH_DEFAULTS
    """The search bots' default parameters for this game."""

    @property
    def hand_size(self) -> int:
        """Cards dealt to each hand: 10, or 7 with five players."""
        return 7 if self.players == 5 else 10

    @property
    def starting_chips(self) -> int:
        """Chips each player starts with."""
        return self.options.five_player_chips if self.players == 5 else 3

    def validate_options(self) -> None:
        if self.players != 5 and self.options.five_player_chips != 2:
            raise error(InvalidOptionsError, "kk.five_player_chips")

    def create_state(self, seed: int) -> KKState:
        return KKState(self, seed)

    def checked_action_id(self, action: object) -> int:
        """The id of ``action``; raises :class:`InvalidActionError` for anything that is not a
        Krass Kariert action (code ``action.invalid``) or is a malformed one (``kk.bad_*``).

        Speed: the shared action objects (what ``legal_actions`` hands out) are found by
        identity; only other objects go through the field checks of :func:`actions.action_id`.
        """
        try:
            return acts.SHARED_IDS[id(action)]
        except KeyError:
            return acts.action_id(action)

    def sample_world(self, observation: KKObservation, rng: random.Random) -> KKState:
        return _sample_world(self, observation, rng)

    @property
    def num_distinct_actions(self) -> int:
        return acts.NUM_ACTIONS

    def action_to_id(self, action: acts.Action) -> int:
        return acts.action_id(action)

    def action_from_id(self, action_id: int) -> acts.Action:
        return acts.action_from_id(action_id)

    def format_action(self, action: acts.Action, state: KKState | None = None) -> str:
        return acts.format_action(action)

    def parse_action(self, text: str, state: KKState) -> acts.Action:
        """Read a move for the player to act in ``state``; completes what is unambiguous.

        Raises:
            InvalidActionError: the text is not in the notation (see ``actions``).
            GameOverError: the game is over.
            IllegalActionError: the move is not legal now; the code says why.
            AmbiguousActionError: a window holding an X card without a declared value that
                can be played in several ways (``kk.which_x``), or a reserve card without a
                target position (``kk.which_position``); ``choices`` lists the legal
                completions as (notation, action).

        >>> game = KrassKariert(3)
        >>> game.parse_action("1", game.new_initial_state(seed=1))
        Play(start=0, length=1, x_values=())
        """
        # Speed (record replay): a move in its canonical notation, legal now and not a
        # window with an undeclared X card, is the shared action of its id, with no parsing
        # and no list of legal actions. Everything else takes the full path below, which
        # also says why a move is refused.
        aid = _NOTATION_IDS.get(text) if type(text) is str else None
        if aid is not None and state.phase != OVER and state.is_legal_id(aid):
            action = acts.ACTIONS[aid]
            if not (type(action) is acts.Play and not action.x_values
                    and X in state.hands[state.current_player][
                        action.start : action.start + action.length]):
                return action
        parsed = acts.parse_notation(text)
        shown = text.strip()
        if state.is_terminal():
            raise error(GameOverError, "action.game_over")
        legal = state.legal_actions()
        if isinstance(parsed, acts.PartialReserve):
            choices: list[acts.Action] = [
                a for a in legal if isinstance(a, acts.TakeReserve) and a.reserve == parsed.reserve
            ]
            if not choices:
                raise state.why_illegal(acts.TakeReserve(parsed.reserve, 0))
            params: dict[str, Any] = {"text": shown, "example": acts.format_action(choices[0]),
                                      "last": len(choices)}
            raise AmbiguousActionError(
                message("kk.which_position", params),
                [(acts.format_action(a), a) for a in choices],
                code="kk.which_position",
                params=params,
            )
        if isinstance(parsed, acts.Play) and not parsed.x_values:
            hand = state.hands[state.current_player]
            window = hand[parsed.start : parsed.start + parsed.length]
            if X in window:
                options: list[acts.Action] = [
                    a
                    for a in legal
                    if isinstance(a, acts.Play)
                    and a.start == parsed.start
                    and a.length == parsed.length
                ]
                if len(options) > 1:
                    params = {"text": shown, "cards": "-".join(card_name(c) for c in window),
                              "example": acts.format_action(options[0])}
                    raise AmbiguousActionError(
                        message("kk.which_x", params),
                        [(acts.format_action(a), a) for a in options],
                        code="kk.which_x",
                        params=params,
                    )
                if options:
                    return options[0]
        if parsed not in legal:
            raise state.why_illegal(parsed)
        return parsed

    def state_from_json(self, document: Mapping[str, Any]) -> KKState:
        """Read a position document (see :mod:`.position`); raises
        :class:`~kartentisch.core.errors.InvalidPositionError`."""
        return state_from_json(self, document)

    # ------------------------------------------------------------ search hooks
    def horizon_key(self, state: KKState) -> int:
        """Search playouts stop when the deal number changes (a chip was given)."""
        return search.horizon_key(state)

    def evaluate(self, state: KKState) -> list[float]:
        """Expected returns from the chips (see :func:`search.evaluate`)."""
        return search.evaluate(state)

    def search_candidates(self, observation: KKObservation, ids: list[int]) -> list[int]:
        """The moves the search bots compare (see :func:`search.search_candidates`)."""
        return search.search_candidates(observation, ids, self.options.x_with_x)

    def rollout_action(self, state: KKState, ids: Sequence[int], rng: random.Random) -> int:
        """The heuristic's move on a search world, read straight from the state (fast)."""
        return rollout.heuristic_action(state, ids, rng)

    def run_playout(self, state: KKState, heuristic: bool, rng: random.Random,
                    cap: int) -> int:
        """The search playout's loop inside the engine (see :func:`batch.run_playout`)."""
        return batch.run_playout(state, heuristic, rng, cap)

    def random_games(self, seeds: Sequence[int],
                     rng: random.Random) -> tuple[list[list[float]], int]:
        """Whole games of random play in one call (see :func:`batch.random_games`)."""
        return batch.random_games(self, seeds, rng)
