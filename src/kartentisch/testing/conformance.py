"""Seeded random games checked against the invariants every game must keep.

:func:`check_game` plays games of one variant (game, players, options) with random legal
moves and checks, move by move:

- the player to move is a seat, the legal ids a non-empty tuple of distinct ids in range
  until the end, and the returns all zero until then;
- the cards are conserved: every position document holds the same cards (see
  :mod:`kartentisch.testing.cards`), and every game of the variant deals the same deck;
- at sampled plies (every ``Depth.every``-th, the first and the last), more thoroughly:

  * ``apply`` accepts exactly the legal actions: ``is_legal_id`` agrees with the legal
    list for every id (or a sample, when the id space is huge); every legal id applies on
    a clone (by id and as an action object, with and without the seat); illegal ids raise
    :class:`IllegalActionError` and leave the position document unchanged; a wrong seat,
    a seat that is not one, ``True`` or an out-of-range id raise their own errors;
  * every error raised is well formed: a known reason code whose template's fields are
    all among its params, and params that are plain JSON;
  * clones are independent, both ways;
  * ``state_from_json(to_json())`` writes the same document, has the same legal ids and
    plays on to the same position;
  * each seat's and the spectator's observation is JSON with ``format`` and ``game``, a
    snapshot (it does not change when the state moves on), and unchanged when the hidden
    cards are dealt again: ``sample_world(observation)`` gives a world whose observation
    for that seat, and whose spectator view, equal the real ones, with the same cards;
  * notation and ids round-trip: ``parse_action(format_action(a)) == a`` for every legal
    action, ``action_from_id(action_to_id(a))`` for the whole id space (or a sample);

- at the end: no legal ids, ``current_player`` is ``TERMINAL``, moves raise
  :class:`GameOverError`, the returns are finite, within the spec's bounds and sum to zero
  for zero-sum games, ``reveal`` works, and the game's record (``GameRecord``) survives
  JSON and replays to the identical position.

With ``processes=True`` the games are also replayed in fresh interpreters with other hash
seeds (:mod:`kartentisch.testing.determinism`), which must reach the same positions.

A broken invariant raises :class:`ConformanceError`, naming the variant, the seed and the
ply, so that the failure can be replayed alone. Nothing here imports pytest: the soak
command and any script can use it.
"""

from __future__ import annotations

import json
import math
import random
import string
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Final, NoReturn

from kartentisch.core.errors import (
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    InvalidSeatError,
    KartentischError,
    NotYourTurnError,
)
from kartentisch.core.protocol import OBSERVATION_FORMAT, TERMINAL, Game, State
from kartentisch.core.reasons import Reasons
from kartentisch.core.records import GameRecord
from kartentisch.core.registry import all_reasons, load_game
from kartentisch.core.rng import derive_seed
from kartentisch.testing.cards import count_cards
from kartentisch.testing.errors import ConformanceError

AnyGame = Game[Any, Any, Any]
AnyState = State[Any, Any]

SWEEP_LIMIT: Final = 20_000
"""Id spaces up to this size are swept whole; larger ones are sampled."""
MAX_PLIES: Final = 100_000
"""A game that has not ended after this many moves counts as not terminating."""


@dataclass(frozen=True, slots=True)
class Depth:
    """How much a run checks beyond the per-move invariants."""

    every: int = 16
    """Thorough checks at every ``every``-th ply (and at the first and the last)."""
    illegal: int = 8
    """Illegal ids tried per thorough ply, each followed by a comparison of the document."""
    sweeps: int = 1
    """Thorough plies per game (the first ones) that ask ``is_legal_id`` about every id
    (when the id space has at most :data:`SWEEP_LIMIT` ids); the others ask about
    ``sample`` random ids and the neighbours of the legal ones."""
    sample: int = 500
    """Ids asked about per thorough ply that is not a sweep."""
    seat_checks: int = 2
    """Thorough plies per game (the first ones) that try wrong seats and non-ids."""
    worlds: int = 1
    """``sample_world`` draws per seat per thorough ply."""


QUICK: Final = Depth()
"""The depth of the test suite's runs."""
SOAK: Final = Depth(every=2, illegal=40, sweeps=1_000_000, sample=5_000, seat_checks=1_000_000,
                    worlds=2)
"""The depth of ``KARTENTISCH_SOAK=1`` runs."""


@dataclass(slots=True)
class Report:
    """What a run covered."""

    label: str
    games: int = 0
    actions: int = 0
    thorough_plies: int = 0
    seconds: float = 0.0
    returns: list[list[float]] = field(default_factory=list)


def canon(document: object) -> str:
    """``document`` as canonical JSON text (sorted keys, no NaN): what "equal" means here."""
    return json.dumps(document, sort_keys=True, separators=(",", ":"), allow_nan=False)


def _fields(template: str) -> set[str]:
    return {f for _t, f, _s, _c in string.Formatter().parse(template) if f}


def error_problem(exc: KartentischError, reasons: Mapping[str, str] | None = None) -> str | None:
    """What is wrong with an error the engine raised, or ``None`` when it is well formed:
    a known reason code, params that are plain JSON and name every field of the code's
    template, and a message."""
    table = all_reasons() if reasons is None else reasons
    template = table.get(exc.code)
    if template is None:
        return f"{type(exc).__name__} has an unknown reason code {exc.code!r}"
    try:
        canon(exc.params)
    except (TypeError, ValueError):
        return f"{exc.code}: params are not plain JSON: {exc.params!r}"
    missing = _fields(template) - set(exc.params)
    if missing:
        return f"{exc.code}: params lack {sorted(missing)} for {template!r}"
    if not str(exc):
        return f"{exc.code}: empty message"
    return None


class _Checker:
    """The invariants of one variant; ``where`` tracks the seed and ply for messages."""

    def __init__(self, name: str, game: AnyGame, depth: Depth) -> None:
        self.name = name
        self.game = game
        self.depth = depth
        self.players = game.players
        self.actions = game.num_distinct_actions
        self.reasons: Reasons = all_reasons()
        self.deck: Counter[str] | None = None
        self.where: dict[str, object] = {
            "game": name, "players": game.players, "options": game.options_json()}
        self.thorough_plies = 0
        self.game_thorough = 0

    # ------------------------------------------------------------------ helpers
    def fail(self, invariant: str, detail: str) -> NoReturn:
        raise ConformanceError(invariant, detail, self.where)

    def doc(self, state: AnyState) -> str:
        try:
            return canon(state.to_json())
        except (TypeError, ValueError) as exc:
            self.fail("position-json", f"to_json() is not plain JSON: {exc}")

    def cards(self, document: Mapping[str, Any], what: str) -> None:
        counts = count_cards(self.name, document)
        if self.deck is None:
            self.deck = counts
        elif counts != self.deck:
            extra = counts - self.deck
            missing = self.deck - counts
            self.fail("cards-conserved",
                      f"{what}: cards appeared {dict(extra)} or vanished {dict(missing)}")

    def error_ok(self, exc: KartentischError, invariant: str) -> None:
        """An error must be well formed (see :func:`error_problem`)."""
        problem = error_problem(exc, self.reasons)
        if problem is not None:
            self.fail(invariant, problem)

    def rejects(self, call: Callable[[], object], kind: type[KartentischError],
                before: str, state: AnyState, invariant: str, what: str,
                not_kind: tuple[type[KartentischError], ...] = ()) -> KartentischError:
        """``call`` must raise ``kind`` (not one of ``not_kind``) and leave ``state`` as it was."""
        try:
            call()
        except KartentischError as exc:
            if not isinstance(exc, kind) or isinstance(exc, not_kind):
                self.fail(invariant, f"{what}: raised {type(exc).__name__} ({exc.code}: {exc}),"
                                     f" expected {kind.__name__}")
            self.error_ok(exc, invariant)
            if self.doc(state) != before:
                self.fail(invariant, f"{what}: the rejected call changed the position")
            return exc
        self.fail(invariant, f"{what}: accepted, expected {kind.__name__}")

    # ------------------------------------------------------------------ once per variant
    def check_action_space(self, rng: random.Random) -> None:
        """Ids round-trip through actions; non-ids are refused by ``check_action_id``."""
        game = self.game
        n = self.actions
        if type(n) is not int or not 0 < n < 2**53:
            self.fail("action-space", f"num_distinct_actions is {n!r}: not a whole number"
                                      " from 1 to 2^53")
        ids: Sequence[int] = (range(n) if n <= SWEEP_LIMIT
                              else sorted({rng.randrange(n) for _ in range(self.depth.sample)}))
        for aid in ids:
            back = game.action_to_id(game.action_from_id(aid))
            if back != aid:
                self.fail("id-round-trip", f"action_from_id({aid}) has the id {back}")
        for bad in (-1, n, True, 1.0, "1", None, 10**5000):
            try:
                game.check_action_id(bad)
            except InvalidActionError as exc:
                self.error_ok(exc, "id-check")
            else:
                self.fail("id-check", f"check_action_id accepted {type(bad).__name__}")

    # ------------------------------------------------------------------ a game
    def play(self, seed: int, rng: random.Random, report: Report) -> AnyState:
        """One game from ``seed`` with random moves; every invariant on the way."""
        self.where["seed"] = seed
        self.where["ply"] = 0
        self.game_thorough = 0
        state: AnyState = self.game.new_initial_state(seed)
        if state.seed != seed:
            self.fail("seed", f"the state's seed is {state.seed!r}")
        ply = 0
        while not state.is_terminal():
            self.where["ply"] = ply
            ids = self.per_move(state)
            aid = ids[rng.randrange(len(ids))]
            pending: list[Callable[[AnyState], None]] = []
            if ply % self.depth.every == 0:
                pending = self.thorough(state, ids, aid, rng)
                self.thorough_plies += 1
                self.game_thorough += 1
            try:
                state.apply_id(aid, seat=state.current_player)
            except KartentischError as exc:
                self.fail("apply-legal", f"legal id {aid} was refused: {exc.code}: {exc}")
            for after in pending:
                after(state)
            ply += 1
            if ply > MAX_PLIES:
                self.fail("termination", f"no end after {MAX_PLIES} moves")
        self.where["ply"] = ply
        if ply:  # the last position is checked thoroughly too
            self.thorough_plies += 1
        self.terminal(state)
        self.record_round_trip(state)
        report.actions += ply
        report.returns.append(list(state.returns()))
        return state

    def per_move(self, state: AnyState) -> tuple[int, ...]:
        """The invariants checked at every ply; returns the legal ids."""
        current = state.current_player
        if type(current) is not int or not 0 <= current < self.players:
            self.fail("current-player", f"current_player is {current!r} in a running game")
        ids = state.legal_action_ids()
        if type(ids) is not tuple:
            self.fail("legal-ids", f"legal_action_ids() is a {type(ids).__name__}, not a tuple")
        if not ids:
            self.fail("legal-ids", "no legal action in a running game")
        if any(type(a) is not int or not 0 <= a < self.actions for a in ids):
            self.fail("legal-ids", f"a legal id out of range: {ids}")
        if len(set(ids)) != len(ids):
            self.fail("legal-ids", f"a legal id twice: {ids}")
        if any(r != 0 for r in state.returns()):
            self.fail("returns", f"returns before the end: {state.returns()}")
        self.cards(state.to_json(), "position")
        return ids

    def thorough(self, state: AnyState, ids: tuple[int, ...], aid: int,
                 rng: random.Random) -> list[Callable[[AnyState], None]]:
        """The sampled-ply invariants; returns checks to run once ``aid`` has been applied."""
        game = self.game
        before = self.doc(state)
        current = state.current_player
        pending: list[Callable[[AnyState], None]] = []

        # Legal actions as objects, notation and ids.
        actions = state.legal_actions()
        if [game.action_to_id(a) for a in actions] != list(ids):
            self.fail("legal-actions", "legal_actions() does not match legal_action_ids()")
        for action in actions:
            text = game.format_action(action, state)
            try:
                parsed = game.parse_action(text, state)
            except KartentischError as exc:
                self.fail("notation", f"{text!r} (a legal move) does not parse: {exc}")
            if parsed != action:
                self.fail("notation", f"{text!r} parses to {parsed!r}, not {action!r}")
        if self.doc(state) != before:
            self.fail("notation", "parse_action or format_action changed the position")

        self.legality(state, ids, before, rng)
        if self.game_thorough < self.depth.seat_checks:
            self.seats_and_ids(state, ids, aid, before)
        self.rejects(state.reveal, IllegalActionError, before, state, "reveal",
                     "reveal() before the end")

        # Clones: the clone moves, the original stays; later the original moves alone.
        twin = state.clone()
        twin.apply_id(aid)
        if self.doc(state) != before:
            self.fail("clone", "moving a clone changed the original")
        twin_doc = self.doc(twin)

        def clone_after(moved: AnyState) -> None:
            if self.doc(twin) != twin_doc:
                self.fail("clone", "moving the original changed its clone")
            if self.doc(moved) != twin_doc:
                self.fail("clone", f"id {aid} gives different positions on a state and its clone")

        pending.append(clone_after)

        # Position round trip, through JSON text.
        copy = self.position_round_trip(state, before, ids)
        copy.apply_id(aid)
        copy_doc = self.doc(copy)

        def copy_after(moved: AnyState) -> None:
            if self.doc(moved) != copy_doc:
                self.fail("position-round-trip", f"the read position plays id {aid} differently")

        pending.append(copy_after)

        # Observations: format, snapshots, and invariance under re-dealing hidden cards.
        views = self.observations(state)
        for seat in range(self.players):
            for _ in range(self.depth.worlds):
                self.resample(state, seat, views, ids, current, rng)
        if self.doc(state) != before:
            self.fail("observation", "observing or sampling worlds changed the position")
        objects = {seat: state.observation(seat) for seat in (*range(self.players), None)}

        def views_after(_moved: AnyState) -> None:
            for seat, obs in objects.items():
                if canon(obs.to_json()) != views[seat]:
                    self.fail("observation-snapshot",
                              f"seat {seat}'s observation changed when the state moved on")

        pending.append(views_after)
        return pending

    def legality(self, state: AnyState, ids: tuple[int, ...], before: str,
                 rng: random.Random) -> None:
        """``is_legal_id`` and ``apply`` accept exactly the legal ids."""
        game = self.game
        n = self.actions
        legal = set(ids)
        if n <= SWEEP_LIMIT and self.game_thorough < self.depth.sweeps:
            candidates: Sequence[int] = range(n)
        else:  # random ids and the neighbours of legal ones (often nearly legal)
            near = {a + d for a in ids for d in (-2, -1, 1, 2)}
            pool = {rng.randrange(n) for _ in range(self.depth.sample)} | near
            candidates = sorted(a for a in pool if 0 <= a < n)
        illegal: list[int] = []
        for a in candidates:
            ok = state.is_legal_id(a)
            if ok != (a in legal):
                self.fail("is-legal-id", f"is_legal_id({a}) is {ok}, the legal list says"
                                         f" {a in legal}")
            if not ok:
                illegal.append(a)
        chosen = rng.sample(illegal, min(self.depth.illegal, len(illegal)))
        for k, a in enumerate(chosen):
            self.rejects(partial(state.apply_id, a), IllegalActionError, before, state,
                         "apply-illegal", f"apply_id({a}) of an illegal id",
                         (NotYourTurnError, GameOverError))
            if k < 3:
                action = game.action_from_id(a)
                self.rejects(partial(state.apply, action), IllegalActionError,
                             before, state, "apply-illegal", f"apply({action!r})",
                             (NotYourTurnError, GameOverError))
        current = state.current_player
        for k, a in enumerate(ids):
            by_id = state.clone()
            try:
                by_id.apply_id(a)
            except KartentischError as exc:
                self.fail("apply-legal", f"legal id {a} refused on a clone: {exc.code}: {exc}")
            if k < 3 or a == ids[-1]:
                by_action = state.clone()
                try:
                    by_action.apply(game.action_from_id(a), seat=current)
                except KartentischError as exc:
                    self.fail("apply-legal", f"legal action {a} refused by apply: {exc}")
                if self.doc(by_action) != self.doc(by_id):
                    self.fail("apply-legal", f"apply and apply_id of id {a} differ")
        if self.doc(state) != before:
            self.fail("clone", "moving clones changed the original")

    def seats_and_ids(self, state: AnyState, ids: tuple[int, ...], aid: int,
                      before: str) -> None:
        """Wrong seats and non-ids are refused with their own errors, the state unchanged."""
        current = state.current_player
        n = self.players
        if n > 1:
            other = (current + 1) % n
            self.rejects(partial(state.apply_id, aid, seat=other), NotYourTurnError, before,
                         state, "seat-check", f"apply_id by seat {other} out of turn")
        bad_seats: tuple[Any, ...] = (n, -1, True, 2.0, "0", 10**5000)
        for seat in bad_seats:
            self.rejects(partial(state.apply_id, aid, seat=seat), InvalidSeatError, before,
                         state, "seat-check", f"apply_id with seat {type(seat).__name__}")
        bad_ids: tuple[Any, ...] = (True, -1, self.actions, 1.5, "0", None, 10**5000)
        for bad in bad_ids:
            self.rejects(partial(state.apply_id, bad), InvalidActionError, before, state,
                         "id-check", f"apply_id({type(bad).__name__})")
        for nonsense in (None, "nonsense", 3.5, object()):
            self.rejects(partial(state.apply, nonsense), InvalidActionError, before, state,
                         "action-check", f"apply({type(nonsense).__name__})")
        odd_seats: tuple[Any, ...] = (n, True, -1, 10**5000, "1")
        for seat in odd_seats:
            self.rejects(partial(state.observation, seat), InvalidSeatError, before, state,
                         "seat-check", f"observation({type(seat).__name__})")

    def position_round_trip(self, state: AnyState, before: str,
                            ids: tuple[int, ...]) -> AnyState:
        """``state_from_json(to_json())`` is the same position; returns the copy."""
        try:
            copy: AnyState = self.game.state_from_json(json.loads(before))
        except KartentischError as exc:
            self.fail("position-round-trip", f"the state's own document is refused: {exc}")
        if self.doc(copy) != before:
            self.fail("position-round-trip", "reading and writing changed the document")
        if copy.legal_action_ids() != ids and not state.is_terminal():
            self.fail("position-round-trip", "the read position has other legal ids")
        if copy.current_player != state.current_player:
            self.fail("position-round-trip", "the read position has another player to move")
        return copy

    def observations(self, state: AnyState) -> dict[int | None, str]:
        """Every seat's and the spectator's observation, checked; canonical JSON by seat."""
        views: dict[int | None, str] = {}
        for seat in (*range(self.players), None):
            obs = state.observation(seat)
            document = obs.to_json()
            try:
                text = canon(document)
            except (TypeError, ValueError) as exc:
                self.fail("observation-json", f"seat {seat}'s observation is not JSON: {exc}")
            if document.get("format") != OBSERVATION_FORMAT:
                self.fail("observation-json",
                          f"seat {seat}'s observation has format {document.get('format')!r}")
            if document.get("game") != self.name:
                self.fail("observation-json",
                          f"seat {seat}'s observation names game {document.get('game')!r}")
            if obs.seat != seat:
                self.fail("observation", f"observation({seat}).seat is {obs.seat!r}")
            if obs.current_player != state.current_player:
                self.fail("observation", f"seat {seat} sees {obs.current_player!r} to move")
            views[seat] = text
        return views

    def resample(self, state: AnyState, seat: int, views: dict[int | None, str],
                 ids: tuple[int, ...], current: int, rng: random.Random) -> None:
        """A world dealt from seat ``seat``'s observation looks the same to that seat."""
        world = self.game.sample_world(state.observation(seat), rng)
        if canon(world.observation(seat).to_json()) != views[seat]:
            self.fail("sample-world", f"a world sampled for seat {seat} looks different to it")
        if canon(world.observation(None).to_json()) != views[None]:
            self.fail("sample-world",
                      f"a world sampled for seat {seat} looks different to a spectator")
        self.cards(world.to_json(), f"a world sampled for seat {seat}")
        if world.current_player != current:
            self.fail("sample-world", f"a world sampled for seat {seat} has another player to"
                                      " move")
        if seat == current and world.legal_action_ids() != ids:
            self.fail("sample-world", "the player to move has other legal ids in a sampled world")

    # ------------------------------------------------------------------ the end
    def terminal(self, state: AnyState) -> None:
        """The invariants of a finished game."""
        spec = self.game.spec
        before = self.doc(state)
        if state.legal_action_ids() != ():
            self.fail("terminal", f"legal ids after the end: {state.legal_action_ids()}")
        if state.current_player != TERMINAL:
            self.fail("terminal", f"current_player is {state.current_player!r} after the end")
        returns = list(state.returns())
        if len(returns) != self.players or not all(
                isinstance(r, float | int) and math.isfinite(r) for r in returns):
            self.fail("returns", f"returns {returns!r} are not one finite number per seat")
        low, high = spec.min_utility - 1e-9, spec.max_utility + 1e-9
        if not all(low <= r <= high for r in returns):
            self.fail("returns", f"returns {returns} outside [{spec.min_utility},"
                                 f" {spec.max_utility}]")
        if spec.zero_sum and abs(sum(returns)) > 1e-9:
            self.fail("returns", f"returns {returns} of a zero-sum game sum to {sum(returns)}")
        self.rejects(lambda: state.apply_id(0), GameOverError, before, state, "game-over",
                     "apply_id after the end")
        self.rejects(lambda: state.apply_id(0, seat=0), GameOverError, before, state,
                     "game-over", "apply_id by a seat after the end")
        try:
            revealed = state.reveal()
            canon(revealed)
        except (KartentischError, TypeError, ValueError) as exc:
            self.fail("reveal", f"reveal() at the end: {exc}")
        if revealed.get("game") != self.name:
            self.fail("reveal", f"reveal() names game {revealed.get('game')!r}")
        self.cards(state.to_json(), "final position")
        self.observations(state)
        self.position_round_trip(state, before, ())

    def record_round_trip(self, state: AnyState) -> None:
        """The game's record survives JSON and replays to the identical position."""
        seats = [f"random-{s}" for s in range(self.players)]
        record = GameRecord.from_state(self.name, state, seats)
        data = record.to_json()
        try:
            text = canon(data)
        except (TypeError, ValueError) as exc:
            self.fail("record", f"the record is not plain JSON: {exc}")
        try:
            again = GameRecord.from_json(json.loads(text))
            replayed: AnyState = again.replay()
        except KartentischError as exc:
            self.fail("record", f"the game's own record does not replay: {exc.code}: {exc}")
        if canon(again.to_json()) != text:
            self.fail("record", "reading and writing the record changed it")
        if self.doc(replayed) != self.doc(state):
            self.fail("record", "the replayed record ends in another position")


def check_game(name: str, players: int | None = None, options: Mapping[str, Any] | None = None,
               *, games: int = 1, seed: int = 0, depth: Depth = QUICK,
               processes: bool = False) -> Report:
    """Play ``games`` seeded random games of a variant, checking every invariant.

    Args:
        name, players, options: the variant, as ``load_game`` takes them.
        games: how many games; game ``i`` has the seed ``derive_seed(seed, "conformance", i)``.
        seed: the master seed.
        depth: how thorough (:data:`QUICK` or :data:`SOAK`, or your own :class:`Depth`).
        processes: also replay the games in fresh interpreters with other hash seeds.

    Raises:
        ConformanceError: an invariant does not hold (the message says which and where).
    """
    started = time.perf_counter()
    game = load_game(name, players, options)
    checker = _Checker(name, game, depth)
    report = Report(label=f"{name}-{game.players}p {game.options_json()}")
    checker.check_action_space(random.Random(derive_seed(seed, "action-space")))
    seeds = [derive_seed(seed, "conformance", i) for i in range(games)]
    for game_seed in seeds:
        checker.play(game_seed, random.Random(game_seed), report)
        report.games += 1
    report.thorough_plies = checker.thorough_plies
    if processes:
        from kartentisch.testing.determinism import Case, check_across_processes

        check_across_processes([Case(name, game.players, game.options_json(), s)
                                for s in seeds])
    report.seconds = time.perf_counter() - started
    return report
