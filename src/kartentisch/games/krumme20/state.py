"""Krumme20's rules as state transitions: pure, deterministic, no I/O.

Terms (the rule sheet's): each player has *persönliche Karten* (personal cards, 3 dealt, at
most 5) lying in front of them; the *Ablagestapel* is the play pile whose up sides add up to
its total; the *Abwurfstapel* is the discard pile; the *Nachziehstapel* the draw pile; each
player's *Punktestapel* (score pile) holds cards that score, a crosswise (*quer*) card
doubled. Reaching exactly the target (20) scores; going over is a *Foul*.

A turn is a sequence of *steps*: the play (``turn``), then the special action of the played
number (``flip`` for 0, ``take`` for 1, ``draw`` for 2, ``throw`` for 3, ``four`` for 4),
the second card on 15 (``five``), and claims after the play (``after``). Fouls insert a
``foul`` step for every other player (but not for one who sits out, unless the option
``sitout_foul_reward`` says so); a 1 taking a personal card inserts the victim's ``loss``
compensation; a 4 inserts the victim's ``sitout`` compensation. A step that offers nothing
but ``pass`` by what *everybody* knows is skipped; one that offers more publicly but nothing
by what only its player knows (``peek_own``) is still asked, with ``pass`` alone, so that
skipping never reveals a hidden side.

The team variant (option ``teams``, :mod:`.teams`) changes three things only: the winners
and returns go by team totals, a foul rewards only the fouler's opponents (option
``team_foul_reward``), and with ``team_targets`` off a 0 or a 1 cannot target a teammate.

Cards are ints 0..53 with per-card arrays: ``face`` (the up side's number), ``back`` (the
down side's), and who knows each side (``kup``/``kdown``, bitmasks of seats).

Written twice on purpose: the deal sorts card indices by ``core.rng.random_words`` instead of
calling ``core.rng.shuffled`` on the list of pairs (the same sort by the same words, without
the list); ``tests/krumme20/test_deal.py`` holds it to ``shuffled``.

Size (over 600 lines, kept whole): the steps of a turn call each other and read the per-card
arrays on every move; as methods of one compiled class those are direct C calls and field
reads. What could leave has left (the log, the position, the explanations in
:mod:`.explain`, the options).
"""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING, Any, Final

from kartentisch.core.errors import IllegalActionError
from kartentisch.core.protocol import TERMINAL, Event, Seat, State
from kartentisch.core.rng import random_words
from kartentisch.games.krumme20.actions import (
    ACTIONS,
    MAX_HAND,
    TRIPLES,
    Action,
    Claim33,
    ClaimSum,
    Draw,
    Flip,
    FlipScore,
    Lowest,
    Pass,
    Play,
    Second,
    SitOut,
    Take,
    TakeDiscard,
    TakeDraw,
    TakeScore,
    Throw,
    action_id,
)
from kartentisch.games.krumme20.cards import DECK_SIZE, card_text, deck_pairs
from kartentisch.games.krumme20.log import (
    CARD_TEXTS,
    F_CLAIM33,
    F_CLAIM_SUM,
    F_OVER,
    F_SECOND_NOT_FIVE,
    F_THREE_ZEROS_OVER,
    F_THROW_NOT_THREE,
    NO_FOUL,
    STEP_CODE,
    UNKNOWN,
    decode,
    new_log,
    pack_scores,
)
from kartentisch.games.krumme20.log import (
    CLAIM33 as L_CLAIM33,
)
from kartentisch.games.krumme20.log import (
    CLAIM_SUM as L_CLAIM_SUM,
)
from kartentisch.games.krumme20.log import (
    DEAL as L_DEAL,
)
from kartentisch.games.krumme20.log import (
    DRAW as L_DRAW,
)
from kartentisch.games.krumme20.log import (
    DRAW_PILE_EMPTY as L_DRAW_PILE_EMPTY,
)
from kartentisch.games.krumme20.log import (
    FLIP as L_FLIP,
)
from kartentisch.games.krumme20.log import (
    FLIP_SCORE as L_FLIP_SCORE,
)
from kartentisch.games.krumme20.log import (
    FOUL as L_FOUL,
)
from kartentisch.games.krumme20.log import (
    GAME_OVER as L_GAME_OVER,
)
from kartentisch.games.krumme20.log import (
    LOWEST as L_LOWEST,
)
from kartentisch.games.krumme20.log import (
    NO_CARD as L_NO_CARD,
)
from kartentisch.games.krumme20.log import (
    OVER as L_OVER,
)
from kartentisch.games.krumme20.log import (
    PASS as L_PASS,
)
from kartentisch.games.krumme20.log import (
    PLAY as L_PLAY,
)
from kartentisch.games.krumme20.log import (
    REFILL as L_REFILL,
)
from kartentisch.games.krumme20.log import (
    SAT_OUT as L_SAT_OUT,
)
from kartentisch.games.krumme20.log import (
    SCORE as L_SCORE,
)
from kartentisch.games.krumme20.log import (
    SECOND as L_SECOND,
)
from kartentisch.games.krumme20.log import (
    SITOUT as L_SITOUT,
)
from kartentisch.games.krumme20.log import (
    TAKE as L_TAKE,
)
from kartentisch.games.krumme20.log import (
    TAKE_DISCARD as L_TAKE_DISCARD,
)
from kartentisch.games.krumme20.log import (
    TAKE_DRAW as L_TAKE_DRAW,
)
from kartentisch.games.krumme20.log import (
    TAKE_SCORE as L_TAKE_SCORE,
)
from kartentisch.games.krumme20.log import (
    THREE_ZEROS as L_THREE_ZEROS,
)
from kartentisch.games.krumme20.log import (
    THROW as L_THROW,
)
from kartentisch.games.krumme20.log import (
    TURN as L_TURN,
)
from kartentisch.games.krumme20.log import (
    TURN_LIMIT as L_TURN_LIMIT,
)
from kartentisch.games.krumme20.log import (
    TWENTY as L_TWENTY,
)
from kartentisch.games.krumme20.teams import team_of, team_points

if TYPE_CHECKING:
    from kartentisch.games.krumme20.game import Krumme20
    from kartentisch.games.krumme20.observation import K20Observation

TURN: Final = "turn"
FLIP: Final = "flip"
TAKE: Final = "take"
DRAW2: Final = "draw"
THROW: Final = "throw"
FOUR: Final = "four"
FIVE: Final = "five"
AFTER: Final = "after"
FOUL: Final = "foul"
LOSS: Final = "loss"
SITOUT: Final = "sitout"
OVER: Final = "over"
PHASES: Final = (TURN, FLIP, TAKE, DRAW2, THROW, FOUR, FIVE, AFTER, FOUL, LOSS, SITOUT, OVER)

ACTION_PHASE: Final[dict[int, str]] = {0: FLIP, 1: TAKE, 2: DRAW2, 3: THROW, 4: FOUR}
"""The step a played number opens (a 5's own action is the second card on 15)."""
ACTION_STEPS: Final = (FLIP, TAKE, DRAW2, THROW, FOUR)
""":data:`ACTION_PHASE` as a tuple by number 0-4."""

PRIVATE_PHASES: Final = frozenset({THROW, FIVE, AFTER})
"""Steps whose offer depends on what the acting seat knows (its own down sides, with
``peek_own``): whether such a step is skipped is decided by public knowledge alone."""

PASS_ID: Final = action_id(Pass())
_PLAY: Final = action_id(Play(0))
_SECOND: Final = action_id(Second(0))
_THROW: Final = action_id(Throw(0))
_FLIP: Final = action_id(Flip(0, 0))
_FLIPSCORE: Final = action_id(FlipScore(0))
_TAKE: Final = action_id(Take(0, 0))
_TAKESCORE: Final = action_id(TakeScore(0))
_TAKEDRAW: Final = action_id(TakeDraw())
_TAKEDISCARD: Final = action_id(TakeDiscard())
_DRAW: Final = action_id(Draw())
_SITOUT: Final = action_id(SitOut())
_LOWEST: Final = action_id(Lowest(0))
_CLAIM33: Final = action_id(Claim33((0, 1, 2)))
_SUM_UP: Final = action_id(ClaimSum(False))
_SUM_DOWN: Final = action_id(ClaimSum(True))


class K20State(State[Action, "K20Observation"]):
    """A Krumme20 game in progress.

    What happened is kept compactly (see :mod:`.log`): the action ids in a byte string and
    the happenings as 64-bit words. :attr:`history` and :attr:`events` are decoded from
    them when read, so play that never reads them does not pay for them.
    """

    game: Krumme20

    __slots__ = (
        "_current", "_events", "_events_at", "_history", "_ids", "_legal", "ablage",
        "abwurf", "all_mask", "back", "cross", "draw", "draw_top_visible", "draws_left", "face",
        "final_turns", "fouls", "game", "hands", "kdown", "kup", "log_words", "peek_own", "phase",
        "play_flips", "queue", "scores", "second_done", "secrets", "seed", "sitting_out",
        "target", "team", "teamed", "total", "turn", "turns", "value", "zeros",
    )

    def __init__(self, game: Krumme20, seed: int, *, deal_now: bool = True,
                 copy_of: K20State | None = None):
        """A game of ``game`` dealt from ``seed``; ``deal_now=False`` leaves the table empty
        for a reader that fills it (positions, sampled worlds); ``copy_of``: a copy of that
        state instead (what :meth:`clone` does; a class compiled with mypyc cannot be made
        through ``__new__``)."""
        self.game = game
        self.seed = seed
        opts = game.options
        # Options the rules read at every step, as plain fields (no attribute chains).
        self.play_flips: bool = bool(opts.play_flips)
        self.peek_own: bool = bool(opts.peek_own)
        self.draw_top_visible: bool = bool(opts.draw_top_visible)
        self.target: int = opts.target
        self.teamed: bool = opts.teams != "none"
        """Whether seats play in teams (option ``teams``)."""
        self.team: list[int] = team_of(opts.teams, game.players)
        """Each seat's team (:func:`.teams.team_of`; each seat its own without teams). Fixed
        by the options, never changed: shared by clones."""
        self._events: list[Event] = []
        """Events decoded from the log so far (see :attr:`events`)."""
        self._events_at = 0
        """Where in the log decoding goes on."""
        self._history: list[Action] = []
        """Actions decoded from the ids so far (see :attr:`history`)."""
        if copy_of is not None:
            other = copy_of
            self._ids: bytearray = other._ids[:]
            self.log_words: array[int] = other.log_words[:]
            self.all_mask: int = other.all_mask
            self.face: list[int] = other.face.copy()
            self.back: list[int] = other.back.copy()
            self.kup: list[int] = other.kup.copy()
            self.kdown: list[int] = other.kdown.copy()
            self.cross: list[bool] = other.cross.copy()
            self.hands: list[list[int]] = [h.copy() for h in other.hands]
            self.scores: list[list[int]] = [s.copy() for s in other.scores]
            self.ablage: list[int] = other.ablage.copy()
            self.abwurf: list[int] = other.abwurf.copy()
            self.draw: list[int] = other.draw.copy()
            self.total: int = other.total
            self.zeros: int = other.zeros
            self.turn: int = other.turn
            self.phase: str = other.phase
            self._current: int = other._current
            self.value: int = other.value
            self.second_done: bool = other.second_done
            self.draws_left: int = other.draws_left
            self.queue: list[tuple[str, int]] = other.queue.copy()  # of immutable pairs
            self.sitting_out: list[bool] = other.sitting_out.copy()
            self.final_turns: int | None = other.final_turns
            self.turns: int = other.turns
            self.fouls: list[int] = other.fouls.copy()
            self.secrets: bool = other.secrets
            self._legal: tuple[int, ...] | None = other._legal  # a tuple: sharing is safe
            return
        self._ids = bytearray()
        """The action ids played so far (every id is below 256)."""
        self.log_words = new_log()
        """What happened, as words (:mod:`.log`)."""
        n = game.players
        self.all_mask = (1 << n) - 1
        self.face = [0] * DECK_SIZE
        self.back = [0] * DECK_SIZE
        self.kup = [0] * DECK_SIZE
        self.kdown = [0] * DECK_SIZE
        self.cross = [False] * DECK_SIZE
        self.hands = [[] for _ in range(n)]
        self.scores = [[] for _ in range(n)]
        self.ablage = []
        """The play pile, bottom first."""
        self.abwurf = []
        """The discard pile, bottom first."""
        self.draw = []
        """The draw pile; its top is the last element."""
        self.total = 0
        self.zeros = 0
        """0s played in a row onto the Ablagestapel since its last reset."""
        self.turn = 0
        """The seat whose turn it is (the current player may be another, e.g. in a foul)."""
        self.phase = TURN
        self._current = 0
        self.value = -1
        """The counting number of this turn's played card (-1: none yet)."""
        self.second_done = False
        self.draws_left = 0
        self.queue = []
        """The steps still to come this turn, after the current one."""
        self.sitting_out = [False] * n
        self.final_turns = None
        """Turns left in the final lap (None: the final lap has not begun)."""
        self.turns = 0
        """Turns started so far (sat-out and skipped turns not counted)."""
        self.fouls = [0] * n
        self.secrets = bool(game.options.peek_own)
        """Whether some side may be known to some seats but not to all. Without ``peek_own``
        every side is known to everybody or to nobody in play (only a position document can
        say otherwise), and then the public check of a skipped step is not needed."""
        self._legal = None
        """The legal ids, computed once per step (an immutable tuple: handed out as it is)."""
        if deal_now:
            self._deal()

    # ----------------------------------------------------------------- protocol
    @property
    def current_player(self) -> Seat:
        return TERMINAL if self.phase == OVER else self._current

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def score_of(self, seat: int) -> int:
        """The points on ``seat``'s Punktestapel: up sides, crosswise cards doubled."""
        face, cross = self.face, self.cross
        return sum(face[c] * (2 if cross[c] else 1) for c in self.scores[seat])

    def final_scores(self) -> list[int]:
        """Every seat's points now."""
        return [self.score_of(s) for s in range(self.game.players)]

    def team_scores(self) -> list[int]:
        """Every team's points now, team by team (:func:`.teams.team_of`): the sum of its
        members' score piles; without teams, every seat's own points."""
        return team_points(self.final_scores(), self.team)

    def winners(self) -> list[int]:
        """The seats with the highest score (all of them on a tie); in the team game every
        member of each team with the highest team total. Empty until the end."""
        if self.phase != OVER:
            return []
        if self.teamed:
            totals = self.team_scores()
            best = max(totals)
            return [s for s, t in enumerate(self.team) if totals[t] == best]
        scores = self.final_scores()
        best = max(scores)
        return [s for s, v in enumerate(scores) if v == best]

    def returns(self) -> list[float]:
        """1/k for each of the k winners, 0 for everybody else (all 0 until the end). In the
        team game k counts the winning teams, and every member of a winning team gets its
        team's share (a lone winning team: 1 to each member)."""
        n = self.game.players
        if self.phase != OVER:
            return [0.0] * n
        won = self.winners()
        team = self.team
        share = 1.0 / len({team[s] for s in won})
        return [share if s in won else 0.0 for s in range(n)]

    def legal_action_ids(self) -> tuple[int, ...]:
        """The legal actions' integer ids (the fast path for search and RL); a tuple, so a
        caller cannot change the state's own record of them."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._legal_now()
        return legal

    def legal_actions(self) -> list[Action]:
        # The shared action objects by subscript: faster than the base's decoding per id.
        return [ACTIONS[i] for i in self.legal_action_ids()]

    def is_legal_id(self, aid: int) -> bool:
        # The cached tuple read directly: one method call fewer per checked apply.
        legal = self._legal
        if legal is None:
            legal = self.legal_action_ids()
        return aid in legal

    def check_actor(self, seat: object) -> None:
        # Fast path of the usual call (no seat given, game running); everything else goes
        # to the base class's one policy. ``seat`` is typed ``object`` because anything may
        # be passed and must get the base's error: compiled with mypyc, a narrower
        # annotation would raise ``TypeError`` first.
        if seat is None and self.phase != OVER:
            return
        super().check_actor(seat)  # type: ignore[arg-type]

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickling: the state is rebuilt by :func:`_unpickle` from the game, the seed and
        the fields :meth:`clone` copies (events and history decoded again, as in a clone).

        Why: a class compiled with mypyc is made only through ``__init__`` with its
        arguments, so Python's default pickling (an empty object, then its fields) fails
        for the compiled state. The pure class takes the same path, so a pickle made in
        one mode loads in the other.
        """
        return (_unpickle, (self.game, self.seed, tuple(getattr(self, n) for n in _PICKLED)))

    def __deepcopy__(self, memo: dict[int, Any]) -> K20State:
        """``copy.deepcopy`` is :meth:`clone` (which shares only what is immutable)."""
        return self.clone()

    def clone(self) -> K20State:
        """An independent copy: every list and the log are copied; what stays shared is
        immutable (the game, the legal ids' tuple, the queue's pairs). The copy decodes its
        own events and history when asked, so it shares no event dictionary either."""
        return K20State(self.game, self.seed, deal_now=False, copy_of=self)

    @property
    def events(self) -> list[Event]:
        """Everything that happened so far, oldest first (see :mod:`.log` for the kinds).

        Decoded from the log on first use and extended on later calls."""
        made = self._events
        log = self.log_words
        at = self._events_at
        if at < len(log):
            players = self.game.players
            team = self.team if self.teamed else None
            while at < len(log):
                event, at = decode(log, at, players, team)
                made.append(event)
            self._events_at = at
        return made

    @events.setter
    def events(self, value: list[Event]) -> None:
        # The given events stand for everything logged so far; later happenings follow.
        self._events = list(value)
        self._events_at = len(self.log_words)

    @property
    def history(self) -> list[Action]:
        """The actions played so far, oldest first (the shared action objects).

        Decoded from the ids on first use and extended on later calls."""
        made = self._history
        ids = self._ids
        for k in range(len(made), len(ids)):  # (a loop: mypyc cannot iterate a bytearray)
            made.append(ACTIONS[ids[k]])
        return made

    @history.setter
    def history(self, value: list[Action]) -> None:
        self._ids = bytearray(action_id(a) for a in value)
        self._history = []

    def history_ids(self) -> list[int]:
        """The ids of :attr:`history`, oldest first, without making the action objects
        (what a record is written from, see ``core.records.history_texts``)."""
        return list(self._ids)

    def observation(self, seat: object) -> K20Observation:
        """What ``seat`` may know; ``None``: what a spectator may know. Raises
        :class:`~kartentisch.core.errors.InvalidSeatError` for a bad seat (typed ``object``
        for the same reason as :meth:`check_actor`)."""
        from kartentisch.games.krumme20.observation import observe

        return observe(self, None if seat is None else self.game.check_seat(seat))

    def to_json(self) -> dict[str, Any]:
        from kartentisch.games.krumme20.position import state_to_json

        return state_to_json(self)

    def card_text(self, card: int) -> str:
        """A card as ``up/down`` (both sides, whoever knows them; for debugging)."""
        return card_text(self.face[card], self.back[card])

    def __str__(self) -> str:
        hands = " | ".join(" ".join(self.card_text(c) for c in h) for h in self.hands)
        return (f"K20 turn {self.turns} seat {self.turn} phase {self.phase} to move "
                f"{self.current_player} total {self.total}: {hands}")

    # ----------------------------------------------------------------- knowledge
    def knows_down(self, seat: int, card: int) -> bool:
        """Whether ``seat`` knows ``card``'s down side."""
        return bool(self.kdown[card] >> seat & 1)

    def counting_side(self, card: int) -> tuple[int, int]:
        """(number, knowledge mask) of the side ``card`` will count with when played."""
        if self.play_flips:
            return self.back[card], self.kdown[card]
        return self.face[card], self.kup[card]

    # ----------------------------------------------------------------- legal actions
    def _legal_now(self) -> tuple[int, ...]:
        """The legal ids of the current step.

        A step offering nothing but ``pass`` by what the acting seat knows is still offered
        (as ``pass`` alone) when by public knowledge it would offer more: otherwise the
        step's being skipped would tell everybody something about sides only that seat
        knows (a ``peek_own`` player without a 3 underneath). See :meth:`_next_step`.
        """
        if self.phase == OVER:
            return ()
        ids = self._generate(1 << self._current)
        if ids:
            return tuple(ids)
        if self.secrets and self.phase in PRIVATE_PHASES and self._generate(self.all_mask):
            return (PASS_ID,)
        return ()

    def _generate(self, know: int) -> list[int]:
        """The ids a seat whose knowledge is ``know`` may choose now: ``1 << seat`` for the
        acting seat, ``all_mask`` for what everybody knows. A side counts as known when its
        knowledge mask holds all of ``know``'s bits. Empty when only ``pass`` is left (the
        step is then skipped); otherwise ``pass`` comes last where it is allowed."""
        phase = self.phase
        seat = self._current
        hand = self.hands[seat]
        n_hand = len(hand)
        opts = self.game.options
        ids: list[int] = []
        if phase == TURN:
            if hand:
                # A play is left out only when its counting side is known to the mover (then
                # _visible_play_foul decides); the mask test first spares most method calls.
                bit = 1 << seat
                masks = self.kdown if self.play_flips else self.kup
                ids = [_PLAY + i for i, c in enumerate(hand)
                       if not (masks[c] & bit and self._visible_play_foul(seat, c))]
                if not ids:  # every card is a foul: the play is still obligatory
                    ids = list(range(_PLAY, _PLAY + n_hand))
            ids.extend(self._claim_ids(seat, know))
            return ids
        if phase == AFTER:
            ids.extend(self._claim_ids(seat, know))
        elif phase == FLIP:
            spared = self._spared_team(seat)
            for s in range(self.game.players):
                if s != seat and self.team[s] == spared:
                    continue
                base = _FLIP + s * MAX_HAND
                ids.extend(range(base, base + len(self.hands[s])))
            ids.extend(range(_FLIPSCORE, _FLIPSCORE + len(self.scores[seat])))
        elif phase == TAKE or (phase in (LOSS, SITOUT) and opts.compensation == "take"):
            # The 1's targets; with ``compensation=take`` also the compensation's (the sheet
            # words both "eine Karte ziehen").
            if n_hand < MAX_HAND:
                spared = self._spared_team(seat)
                for s in range(self.game.players):
                    if s != seat and self.team[s] != spared:
                        base = _TAKE + s * MAX_HAND
                        ids.extend(range(base, base + len(self.hands[s])))
                ids.extend(range(_TAKESCORE, _TAKESCORE + len(self.scores[seat])))
                if self.draw:
                    ids.append(_TAKEDRAW)
                if self.abwurf:
                    ids.append(_TAKEDISCARD)
            elif phase == SITOUT:
                ids.extend(_LOWEST + i for i in self._lowest(seat))
        elif phase in (DRAW2, LOSS):
            if self.draw and n_hand < MAX_HAND and (phase == LOSS or self.draws_left > 0):
                ids.append(_DRAW)
        elif phase == THROW:
            for i in range(n_hand):
                number, known = self.counting_side(hand[i])
                if number == 3 or known & know != know:
                    ids.append(_THROW + i)
        elif phase == FOUR:
            ids.append(_SITOUT)
        elif phase == FIVE:
            if (self.total == self.target - 5 and not self.second_done
                    and (opts.second_five == "any" or self.value == 5)):
                for i in range(n_hand):
                    number, known = self.counting_side(hand[i])
                    if number == 5 or known & know != know:
                        ids.append(_SECOND + i)
        elif phase == FOUL:
            ids.extend(_LOWEST + i for i in self._lowest(seat))
        elif phase == SITOUT:
            if self.draw and n_hand < MAX_HAND:
                ids.append(_DRAW)
            if n_hand == MAX_HAND:
                ids.extend(_LOWEST + i for i in self._lowest(seat))
        if not ids:
            return ids
        ids.append(PASS_ID)
        return ids

    def _spared_team(self, seat: int) -> int:
        """The team whose personal cards ``seat``'s 0 and 1 may not target besides its own
        (``seat``'s team when the option ``team_targets`` is off in the team game), or -1."""
        if self.teamed and not self.game.options.team_targets:
            return self.team[seat]
        return -1

    def _lowest(self, seat: int) -> list[int]:
        """Indices of ``seat``'s personal cards with the lowest up side."""
        hand = self.hands[seat]
        if not hand:
            return []
        face = self.face
        low = min(face[c] for c in hand)
        return [i for i, c in enumerate(hand) if face[c] == low]

    def _visible_play_foul(self, seat: int, card: int) -> bool:
        """Whether playing ``card`` is a foul ``seat`` can already see (known sides only)."""
        bit = 1 << seat
        number, known = self.counting_side(card)
        if not known & bit:
            return False
        target = self.target
        if number:
            return self.total + number > target
        if self.zeros < 2 or len(self.ablage) < 2:
            return False
        # The third 0 in a row: all three turn over. Visible only if every new side is known.
        total = self.total
        for c in self.ablage[-2:]:
            if not self.kdown[c] & bit:
                return False
            total += self.back[c]
        if self.play_flips:
            total += self.face[card]  # the card's current up side comes back up
        else:
            if not self.kdown[card] & bit:
                return False
            total += self.back[card]
        return total > target

    def _claim_ids(self, seat: int, know: int) -> list[int]:
        """Claims (3/3, Σ20) that a seat knowing ``know`` can make by what it can see."""
        hand = self.hands[seat]
        n_hand = len(hand)
        target = self.target
        # Both claims need cards: three 3s, or sides that can reach the target (5 at most
        # each). The usual hand of two or three cards settles it here.
        sums_possible = 5 * n_hand >= target
        if n_hand < 3 and not sums_possible:
            return []
        ids: list[int] = []
        face, back, kdown = self.face, self.back, self.kdown
        if n_hand >= 3:
            ok = [face[c] == 3 and (back[c] == 3 or kdown[c] & know != know) for c in hand]
            if sum(ok) >= 3:
                for k, t in enumerate(TRIPLES):
                    if t[2] < n_hand and ok[t[0]] and ok[t[1]] and ok[t[2]]:
                        ids.append(_CLAIM33 + k)
        if not sums_possible:
            return ids
        # Both sums in one pass over the hand (this runs twice per turn).
        up_sum = known_sum = unknown = 0
        for c in hand:
            up_sum += face[c]
            if kdown[c] & know == know:
                known_sum += back[c]
            else:
                unknown += 1
        if up_sum == target:
            ids.append(_SUM_UP)
        if known_sum <= target <= known_sum + 5 * unknown:
            ids.append(_SUM_DOWN)
        return ids

    # ----------------------------------------------------------------- why not
    def why_illegal(self, action: Action) -> IllegalActionError:
        """The coded error saying why ``action`` is not legal now (:mod:`.explain`)."""
        from kartentisch.games.krumme20.explain import why_illegal

        return why_illegal(self, action)

    # ----------------------------------------------------------------- transitions
    def apply_unchecked(self, aid: int) -> None:
        """Apply a legal action id without any check (the search fast path; the checked
        entry points are the base class's ``apply`` and ``apply_id``).

        Dispatched on the id's range (see :mod:`.actions` for the layout), so no action
        object is looked at; every happening goes to the log as a word (:mod:`.log`)."""
        seat = self._current
        self._ids.append(aid)
        self._legal = None
        log = self.log_words
        # The commonest actions first: plays (ids 0-4), pass, draw.
        if aid < _SECOND:
            self._play(seat, aid)
        elif aid == PASS_ID:
            log.append(L_PASS | (seat + 1) << 5 | STEP_CODE[self.phase] << 8)
        elif aid == _DRAW:
            phase = self.phase
            card = self._draw_one(seat)
            log.append(L_DRAW | (seat + 1) << 5
                       | (self.face[card] | STEP_CODE[phase] << 3) << 8)
            if phase == DRAW2:
                self.draws_left -= 1
                if self.draws_left > 0:
                    self.queue.insert(0, (DRAW2, seat))
        elif aid < _THROW:
            self._second(seat, aid - _SECOND)
        elif aid < _FLIP:
            self._throw(seat, aid - _THROW)
        elif aid < _FLIPSCORE:
            owner, index = divmod(aid - _FLIP, MAX_HAND)
            card = self.hands[owner][index]
            self._flip(card)
            log.append(L_FLIP | (seat + 1) << 5
                       | (owner | index << 3 | self._public(card) << 6) << 8)
        elif aid < _TAKE:
            index = aid - _FLIPSCORE
            card = self.scores[seat][index]
            self._flip(card)
            log.append(L_FLIP_SCORE | (seat + 1) << 5 | (index | self._public(card) << 6) << 8)
        elif aid < _TAKESCORE:
            owner, index = divmod(aid - _TAKE, MAX_HAND)
            card = self.hands[owner].pop(index)
            self._to_hand(seat, card)
            log.append(L_TAKE | (seat + 1) << 5 | (owner | index << 3 | self.face[card] << 6) << 8)
            if self.phase == TAKE:  # a card taken as a compensation brings none of its own
                self.queue.insert(0, (LOSS, owner))
        elif aid < _TAKEDRAW:
            index = aid - _TAKESCORE
            card = self.scores[seat].pop(index)
            self.cross[card] = False
            self._to_hand(seat, card)
            log.append(L_TAKE_SCORE | (seat + 1) << 5 | (index | self.face[card] << 6) << 8)
        elif aid == _TAKEDRAW:
            card = self._draw_one(seat)
            log.append(L_TAKE_DRAW | (seat + 1) << 5 | self.face[card] << 8)
        elif aid == _TAKEDISCARD:
            card = self.abwurf.pop()
            self._to_hand(seat, card)
            log.append(L_TAKE_DISCARD | (seat + 1) << 5 | self.face[card] << 8)
        elif aid == _SITOUT:
            victim = (seat + 1) % self.game.players
            self.sitting_out[victim] = True
            log.append(L_SITOUT | (seat + 1) << 5 | victim << 8)
            self.queue.insert(0, (SITOUT, victim))
        elif aid < _CLAIM33:
            phase = self.phase
            card = self.hands[seat].pop(aid - _LOWEST)
            self._to_score(seat, card, False)
            log.append(L_LOWEST | (seat + 1) << 5
                       | (self._public(card) | STEP_CODE[phase] << 6) << 8)
        elif aid < _SUM_UP:
            self._claim33(seat, aid - _CLAIM33)
        else:
            self._claim_sum(seat, aid == _SUM_DOWN)
        # _refill's usual case inline: every seat holds a card, or nothing is left to draw.
        if self.draw and not all(self.hands):
            self._refill()
        self._next_step()

    def _public(self, card: int) -> int:
        """The card's public code for the log: each side as everybody knows it (7: not
        everybody), see :func:`.log.public_code`."""
        every = self.all_mask
        up = self.face[card] if self.kup[card] == every else UNKNOWN
        down = self.back[card] if self.kdown[card] == every else UNKNOWN
        return up | down << 3

    def _public_text(self, card: int) -> str:
        """The card as everybody knows it."""
        return CARD_TEXTS[self._public(card)]

    def _reveal_up(self, card: int) -> None:
        self.kup[card] = self.all_mask

    def _flip(self, card: int) -> None:
        """Turn ``card`` over where it lies; the side now up is seen by everybody."""
        face, back, kup, kdown = self.face, self.back, self.kup, self.kdown
        face[card], back[card] = back[card], face[card]
        kup[card], kdown[card] = self.all_mask, kup[card]

    def _to_hand(self, seat: int, card: int) -> None:
        self.hands[seat].append(card)
        self.kup[card] = self.all_mask
        if self.peek_own:
            self.kdown[card] |= 1 << seat

    def _to_score(self, seat: int, card: int, crosswise: bool) -> None:
        self.scores[seat].append(card)
        self.cross[card] = crosswise
        self.kup[card] = self.all_mask
        self.log_words.append(
            L_SCORE | (seat + 1) << 5 | (self._public(card) | crosswise << 6) << 8)

    def _draw_one(self, seat: int) -> int:
        draw = self.draw
        card = draw.pop()
        self._to_hand(seat, card)
        # _draw_changed's usual case inline: the new top shows (when it does) and stays.
        if draw:
            if self.draw_top_visible:
                self.kup[draw[-1]] = self.all_mask
        else:
            self._draw_changed()
        return card

    def _draw_changed(self) -> None:
        """Show the new top of the draw pile; start the final lap when it ran out."""
        if self.draw:
            if self.draw_top_visible:
                self._reveal_up(self.draw[-1])
        elif self.final_turns is None:
            final_lap = self.game.options.end == "final_lap"
            self.final_turns = self.game.players if final_lap else 0
            self.log_words.append(L_DRAW_PILE_EMPTY | (self.turn + 1) << 5 | final_lap << 8)

    def _refill(self) -> None:
        """Whoever holds no personal card draws 3 at once (fewer if fewer remain)."""
        if all(self.hands) or not self.draw:  # the usual case, one C-level pass: nobody draws
            return
        n = self.game.players
        for k in range(n):
            s = (self.turn + k) % n
            if not self.hands[s] and self.draw:
                count = min(3, len(self.draw))
                for _ in range(count):
                    self._draw_one(s)
                self.log_words.append(L_REFILL | (s + 1) << 5 | count << 8)

    def _foul(self, seat: int, kind: int) -> list[tuple[str, int]]:
        """Record a foul of ``kind`` (:data:`.log.FOUL_KINDS`) by ``seat``; the reward steps
        for the other players.

        A player who sits out (made to by a 4, until their turn is skipped) may do nothing
        but take their compensation, so by default they get no reward step (the option
        ``sitout_foul_reward`` gives them one). In the team game the fouler's teammates get
        none either, unless the option ``team_foul_reward`` keeps the sheet's literal "alle
        anderen Spieler" (a reconstruction: a team should not profit from its own foul).
        """
        self.fouls[seat] += 1
        self.log_words.append(L_FOUL | (seat + 1) << 5 | kind << 8)
        n = self.game.players
        opts = self.game.options
        reward_sitting = opts.sitout_foul_reward
        sitting = self.sitting_out
        team = self.team
        # the team game: the fouler's teammates are skipped unless the option says otherwise
        own = team[seat] if self.teamed and not opts.team_foul_reward else -1
        steps: list[tuple[str, int]] = []
        for k in range(1, n):
            s = (seat + k) % n
            if (reward_sitting or not sitting[s]) and team[s] != own:
                steps.append((FOUL, s))
        return steps

    def _land(self, seat: int, card: int, second: bool, index: int) -> tuple[int, int]:
        """Put ``card`` onto the Ablagestapel for ``seat``; resolve the total.

        Returns the number whose special action the play grants (the counting number, or
        with ``three_zeros_action=revealed`` the third 0's new side) and the kind of foul
        (:data:`NO_FOUL` when lawful).

        ``second``: the card was announced as a 5 (the second card on 15); it is logged as
        ``second`` rather than ``play``, with its hand ``index``, before the total is
        resolved.
        """
        if self.play_flips:
            self._flip(card)
        else:
            self.kup[card] = self.all_mask
        ablage = self.ablage
        ablage.append(card)
        number = self.face[card]
        foul = NO_FOUL
        if second and number != 5:
            foul = F_SECOND_NOT_FIVE
        total = self.total + number
        self.total = total
        log = self.log_words
        log.append((L_SECOND if second else L_PLAY) | (seat + 1) << 5
                   | (index | number << 3 | self._public(card) << 6 | total << 12) << 8)
        zeros_turned = False
        if number == 0:
            self.zeros += 1
            if self.zeros >= 3:
                self.zeros = 0
                zeros_turned = True
                three = ablage[-3:]
                for c in three:
                    total -= self.face[c]
                    self._flip(c)
                    total += self.face[c]
                self.total = total
                log.append(L_THREE_ZEROS | (seat + 1) << 5
                           | (self._public(three[0]) | self._public(three[1]) << 6
                              | self._public(three[2]) << 12 | total << 18) << 8)
                if self.game.options.three_zeros_action == "revealed":
                    # The "!" read as "instead": the third card's new side names the action
                    # ("nicht zusätzlich zu jener der zuletzt gespielten 0").
                    number = self.face[card]
        else:
            self.zeros = 0
        target = self.target
        if total == target:
            top = ablage.pop()
            self.abwurf.extend(ablage)
            ablage.clear()
            if foul == NO_FOUL:
                log.append(L_TWENTY | (seat + 1) << 5 | self._public(top) << 8)
                # Crosswise as the last personal card: any card, or (option) only one
                # counting 5, the card the sheet doubles ("ggf. quer = verdoppelt").
                self._to_score(seat, top, not self.hands[seat] and (
                    self.game.options.last_card_crosswise == "any_card"
                    or self.face[top] == 5))
            else:
                self.abwurf.append(top)  # an unlawful card never scores
            self.total = 0
            self.zeros = 0
        elif total > target:
            if foul == NO_FOUL:
                foul = F_THREE_ZEROS_OVER if zeros_turned else F_OVER
            log.append(L_OVER | (seat + 1) << 5 | total << 8)
            self.abwurf.extend(ablage)
            ablage.clear()
            self.total = 0
            self.zeros = 0
        return number, foul

    def _play(self, seat: int, index: int) -> None:
        card = self.hands[seat].pop(index)
        number, foul = self._land(seat, card, False, index)
        self.value = number
        if foul == NO_FOUL:
            steps: list[tuple[str, int]] = []
        else:
            steps = self._foul(seat, foul)
        if number < 5 and (foul == NO_FOUL or self.game.options.foul_keeps_action):
            steps.append((ACTION_STEPS[number], seat))
            self.draws_left = 2 if number == 2 else 0
        steps.append((FIVE, seat))
        steps.append((AFTER, seat))
        self.queue = steps

    def _second(self, seat: int, index: int) -> None:
        card = self.hands[seat].pop(index)
        self.second_done = True
        _number, foul = self._land(seat, card, True, index)
        if foul != NO_FOUL:
            self.queue = self._foul(seat, foul) + self.queue

    def _throw(self, seat: int, index: int) -> None:
        card = self.hands[seat].pop(index)
        if self.play_flips:
            self._flip(card)
        else:
            self._reveal_up(card)
        self.abwurf.append(card)
        number = self.face[card]
        self.log_words.append(L_THROW | (seat + 1) << 5 | (index | number << 3) << 8)
        if number == 3:
            self.queue.insert(0, (THROW, seat))
        else:
            self.queue = self._foul(seat, F_THROW_NOT_THREE) + self.queue

    def _claim33(self, seat: int, triple: int) -> None:
        """Show the personal cards ``TRIPLES[triple]`` as 3/3 cards."""
        indices = TRIPLES[triple]
        hand = self.hands[seat]
        cards = [hand[i] for i in indices]
        for i in sorted(indices, reverse=True):
            del hand[i]
        every = self.all_mask
        for c in cards:  # showing a card shows both its sides
            self.kup[c] = every
            self.kdown[c] = every
        true = all(self.face[c] == 3 and self.back[c] == 3 for c in cards)
        self.log_words.append(L_CLAIM33 | (seat + 1) << 5
                         | (triple | true << 4 | self._public(cards[0]) << 5
                            | self._public(cards[1]) << 11 | self._public(cards[2]) << 17) << 8)
        steps: list[tuple[str, int]] = []
        if true:
            empty = not hand
            for k, c in enumerate(cards):
                self._to_score(seat, c, empty and k == 0)
        else:
            self.abwurf.extend(cards)
            steps = self._foul(seat, F_CLAIM33)
        self.queue = [*steps, (self.phase, seat), *self.queue]

    def _claim_sum(self, seat: int, down: bool) -> None:
        hand = self.hands[seat]
        cards = hand.copy()
        hand.clear()
        if down:
            for c in cards:
                self._flip(c)
        numbers = [self.face[c] for c in cards]
        true = sum(numbers) == self.target
        packed = down | true << 1 | len(numbers) << 2
        for k, v in enumerate(numbers):
            packed |= v << (5 + 3 * k)
        self.log_words.append(L_CLAIM_SUM | (seat + 1) << 5 | packed << 8)
        steps: list[tuple[str, int]] = []
        if true:
            best = max(range(len(cards)), key=lambda k: (numbers[k], -k))
            for k, c in enumerate(cards):
                if k != best:
                    self.abwurf.append(c)
            self._to_score(seat, cards[best], True)
        else:
            self.abwurf.extend(cards)
            steps = self._foul(seat, F_CLAIM_SUM)
        self.queue = [*steps, (self.phase, seat), *self.queue]

    # ----------------------------------------------------------------- flow
    def _next_step(self) -> None:
        """Activate the next step that offers a real choice; end turns as needed.

        Whether a step is skipped depends on public knowledge only (see :meth:`_legal_now`):
        everybody sees which steps are skipped, so the skipping must not reveal a side that
        only the acting seat knows.
        """
        queue = self.queue
        while self.phase != OVER:
            if not queue:
                self._end_turn()
                queue = self.queue
                continue
            kind, seat = queue.pop(0)
            # The commonest skipped steps, settled without _generate (which would find
            # nothing for anybody): the second card on 15 away from target - 5, and claims
            # after the play with a hand that cannot make one (see _claim_ids).
            if kind == FIVE:
                if self.total != self.target - 5:
                    continue
            elif kind == AFTER:
                n_hand = len(self.hands[seat])
                if n_hand < 3 and 5 * n_hand < self.target:
                    continue
            self.phase = kind
            self._current = seat
            # _legal_now inlined (this runs for every step of every action).
            ids = self._generate(1 << seat)
            if ids:
                self._legal = tuple(ids)
                return
            if self.secrets and kind in PRIVATE_PHASES and self._generate(self.all_mask):
                self._legal = (PASS_ID,)
                return
        self._legal = ()

    def _end_turn(self) -> None:
        n = self.game.players
        limit = self.game.options.turn_limit
        log = self.log_words
        if limit and self.turns >= limit and self.final_turns is None:
            self.final_turns = n
            log.append(L_TURN_LIMIT | self.turns << 8)
        seat = self.turn
        while True:
            final_turns = self.final_turns
            if final_turns is not None:
                if final_turns == 0:
                    self._game_over()
                    return
                self.final_turns = final_turns - 1
            seat = (seat + 1) % n
            if self.sitting_out[seat]:
                self.sitting_out[seat] = False
                log.append(L_SAT_OUT | (seat + 1) << 5)
                continue
            if not self.hands[seat]:
                log.append(L_NO_CARD | (seat + 1) << 5)
                continue
            break
        self._begin_turn(seat)

    def _begin_turn(self, seat: int) -> None:
        self.turns += 1
        self.turn = seat
        self.value = -1
        self.second_done = False
        self.draws_left = 0
        self.queue = [(TURN, seat)]
        self.log_words.append(L_TURN | (seat + 1) << 5 | (self.total | self.turns << 8) << 8)

    def _game_over(self) -> None:
        self.phase = OVER
        self._current = TERMINAL
        self.queue = []
        self._legal = ()
        self.log_words.append(L_GAME_OVER)
        self.log_words.append(pack_scores(self.final_scores()))

    def _deal(self) -> None:
        game = self.game
        n = game.players
        # The order of the cards and, independently, which side of each faces up: both from
        # the seed alone (core.rng), so a seed deals the same game on every platform.
        # core.rng.shuffled(deck_pairs(deck), seed, "krumme20", "deck") as card indices (the
        # same sort by the same words: no list of pairs to build and unpack), then each
        # card's sides by a lookup in the deck's tables, built once.
        seed = self.seed
        deck = game.options.deck
        tables = _SIDE_TABLES.get(deck)
        if tables is None:
            tables = _side_tables(deck)
        ups, downs = tables
        keys = random_words(seed, _DECK_LABELS, DECK_SIZE)
        order = sorted(range(DECK_SIZE), key=keys.__getitem__)
        sides = random_words(seed, _SIDES_LABELS, DECK_SIZE)
        face, back = self.face, self.back
        for c in range(DECK_SIZE):
            j = order[c] << 1 | (sides[c] & 1)
            face[c] = ups[j]
            back[c] = downs[j]
        self.draw = list(range(DECK_SIZE))
        for _ in range(3):
            for s in range(n):
                card = self.draw.pop()
                self._to_hand(s, card)
        self._draw_changed()
        sums = [sum([face[c] for c in h]) for h in self.hands]
        start = sums.index(max(sums))  # ties: the first from seat 0 clockwise
        packed = start
        for s, v in enumerate(sums):
            packed |= v << (3 + 4 * s)
        self.log_words.append(L_DEAL | packed << 8)
        self._begin_turn(start)
        self._next_step()


_DECK_LABELS: Final = ("krumme20", "deck")
_SIDES_LABELS: Final = ("krumme20", "sides")

_SIDE_TABLES: Final[dict[str, tuple[list[int], list[int]]]] = {}
"""Per deck (option ``deck``): the up and the down side of the card at index ``i`` of
:func:`.cards.deck_pairs` lying with its side bit ``b`` (bit 0 of its word from the seed),
at ``2 * i + b``; built once per deck."""


def _side_tables(deck: str) -> tuple[list[int], list[int]]:
    """:data:`_SIDE_TABLES` for ``deck``, built and kept."""
    ups: list[int] = []
    downs: list[int] = []
    for a, b in deck_pairs(deck):
        ups += (a, b)
        downs += (b, a)
    tables = _SIDE_TABLES[deck] = (ups, downs)
    return tables


_PICKLED: Final = (
    "_ids", "log_words", "all_mask", "face", "back", "kup", "kdown", "cross", "hands", "scores",
    "ablage", "abwurf", "draw", "total", "zeros", "turn", "phase", "_current", "value",
    "second_done", "draws_left", "queue", "sitting_out", "final_turns", "turns", "fouls",
    "secrets", "_legal",
)
"""The fields a pickle holds: those :meth:`K20State.clone` copies."""


def _unpickle(game: Krumme20, seed: int, values: tuple[Any, ...]) -> K20State:
    """The state :meth:`K20State.__reduce__` pickled."""
    state = K20State(game, seed, deal_now=False)
    for name, value in zip(_PICKLED, values, strict=True):
        setattr(state, name, value)
    return state
