"""``make soak``: very many random games per game, each move checked by lean invariants.

The test suite checks every invariant thoroughly on a few games; the soak run looks for the
rare position that breaks one, over a million games per game. Per move it checks only what
costs next to nothing: a seat to move, a non-empty tuple of legal ids, the move applied
through the checked ``apply_id`` with the seat, and at every ``probe``-th move one illegal
id refused with :class:`IllegalActionError` leaving the legal ids and the player to move as
they were. Per game: the cards of the first and last positions are the same deck, the end
is a real end (no legal ids, ``TERMINAL`` to move, moves refused with
:class:`GameOverError`, finite returns within the spec's bounds, zero-sum where the spec
says so). Every ``full_every``-th game runs the whole conformance check instead
(:func:`kartentisch.testing.check_game`'s invariants at every 8th ply).

Games rotate through the variants of :func:`kartentisch.testing.variants`, so every player
count and option value is covered. Work is spread over ``--workers`` processes in chunks;
progress (games, actions, games/s per game) is printed as chunks finish. The exit status is
1 when any invariant broke; each violation is printed with the seed and variant to replay it
with ``check_game``.

    python -m kartentisch.testing.soak --games 1000000 --workers 2
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any, Final

from kartentisch.core.errors import GameOverError, IllegalActionError, KartentischError
from kartentisch.core.protocol import TERMINAL
from kartentisch.core.registry import list_games, load_game
from kartentisch.core.rng import derive_seed
from kartentisch.testing.cards import count_cards
from kartentisch.testing.conformance import QUICK, Report, _Checker
from kartentisch.testing.errors import ConformanceError
from kartentisch.testing.variants import Variant, variants

CHUNK: Final = 500
"""Games per task sent to a worker."""
PROBE: Final = 16
"""Every ``PROBE``-th move, an illegal id is tried."""
FULL_EVERY: Final = 2_000
"""Every ``FULL_EVERY``-th game runs the full conformance check."""


@dataclass(slots=True)
class ChunkResult:
    """What a worker sends back for one chunk of games."""

    game: str
    games: int = 0
    actions: int = 0
    full: int = 0
    cpu: float = 0.0
    """Processor seconds the worker spent (the machine may be shared)."""
    violations: list[str] = field(default_factory=list)


def _fail(variant: Variant, seed: int, ply: int, invariant: str, detail: str) -> ConformanceError:
    where = {**variant.to_json(), "seed": seed, "ply": ply}
    return ConformanceError(invariant, detail, where)


def lean_game(variant: Variant, game: Any, seed: int) -> int:
    """One random game from ``seed`` with the lean invariants; returns its length."""
    state = game.new_initial_state(seed)
    name = variant.game
    deck = count_cards(name, state.to_json())
    rng = random.Random(seed)
    players = game.players
    space = game.num_distinct_actions
    ply = 0
    while not state.is_terminal():
        current = state.current_player
        if not 0 <= current < players:
            raise _fail(variant, seed, ply, "current-player", f"current_player is {current!r}")
        ids = state.legal_action_ids()
        if not ids or type(ids) is not tuple:
            raise _fail(variant, seed, ply, "legal-ids", f"legal ids {ids!r}")
        if ply % PROBE == 0:
            bad = rng.randrange(space)
            if bad not in ids:
                try:
                    state.apply_id(bad)
                except IllegalActionError as exc:
                    if isinstance(exc, GameOverError) or exc.code == "action.not_your_turn":
                        raise _fail(variant, seed, ply, "apply-illegal",
                                    f"id {bad}: {exc.code}") from None
                except KartentischError as exc:
                    raise _fail(variant, seed, ply, "apply-illegal",
                                f"id {bad} raised {type(exc).__name__} ({exc.code})") from None
                else:
                    raise _fail(variant, seed, ply, "apply-illegal",
                                f"illegal id {bad} was accepted")
                if state.legal_action_ids() != ids or state.current_player != current:
                    raise _fail(variant, seed, ply, "apply-illegal",
                                f"refusing id {bad} changed the state")
        aid = ids[rng.randrange(len(ids))]
        try:
            state.apply_id(aid, seat=current)
        except KartentischError as exc:
            raise _fail(variant, seed, ply, "apply-legal",
                        f"legal id {aid} refused: {exc.code}: {exc}") from None
        ply += 1
    if state.legal_action_ids() != () or state.current_player != TERMINAL:
        raise _fail(variant, seed, ply, "terminal", "legal ids or a player to move after the end")
    returns = state.returns()
    spec = game.spec
    if len(returns) != players or not all(
            math.isfinite(r) and spec.min_utility - 1e-9 <= r <= spec.max_utility + 1e-9
            for r in returns):
        raise _fail(variant, seed, ply, "returns", f"returns {returns!r}")
    if spec.zero_sum and abs(sum(returns)) > 1e-9:
        raise _fail(variant, seed, ply, "returns", f"zero-sum returns {returns!r}")
    try:
        state.apply_id(0)
    except GameOverError:
        pass
    else:
        raise _fail(variant, seed, ply, "game-over", "a move after the end was accepted")
    final = count_cards(name, state.to_json())
    if final != deck:
        raise _fail(variant, seed, ply, "cards-conserved",
                    f"appeared {dict(final - deck)}, vanished {dict(deck - final)}")
    return ply


def run_chunk(name: str, start: int, count: int, master: int, full_every: int) -> ChunkResult:
    """Games ``start`` .. ``start + count - 1`` of game ``name`` (a worker task)."""
    began = time.process_time()
    result = ChunkResult(name)
    table = variants(name)
    games = {v: load_game(v.game, v.players, v.options_dict) for v in table}
    for index in range(start, start + count):
        variant = table[index % len(table)]
        seed = derive_seed(master, name, index)
        try:
            if full_every and index % full_every == full_every - 1:
                checker = _Checker(name, games[variant], QUICK)
                report = Report(variant.label)
                checker.play(seed, random.Random(seed), report)
                result.actions += report.actions
                result.full += 1
            else:
                result.actions += lean_game(variant, games[variant], seed)
        except ConformanceError as exc:
            result.violations.append(str(exc))
        except Exception as exc:  # a crash inside a game is a violation to report, not the end
            result.violations.append(
                f"[crash] {type(exc).__name__}: {exc} ({variant.label}, seed={seed})")
        result.games += 1
    result.cpu = time.process_time() - began
    return result


@dataclass(slots=True)
class _Tally:
    games: int = 0
    actions: int = 0
    full: int = 0
    cpu: float = 0.0
    violations: list[str] = field(default_factory=list)


def soak(names: Sequence[str], games: int, workers: int, seed: int, full_every: int,
         chunk: int = CHUNK, out: Any = sys.stdout) -> bool:
    """Run the soak; print progress to ``out``; ``True`` when no invariant broke."""
    tasks = [(name, start, min(chunk, games - start))
             for name in names for start in range(0, games, chunk)]
    tallies = {name: _Tally() for name in names}
    began = time.perf_counter()
    last_print = began
    print(f"soak: {games} games per game for {', '.join(names)}, {workers} workers,"
          f" seed {seed}, a full check every {full_every} games", file=out, flush=True)
    with ProcessPoolExecutor(max_workers=workers) as pool:
        pending: set[Future[ChunkResult]] = set()
        queue = list(reversed(tasks))
        try:
            while queue or pending:
                while queue and len(pending) < 2 * workers:
                    name, start, count = queue.pop()
                    pending.add(pool.submit(run_chunk, name, start, count, seed, full_every))
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    result = future.result()
                    tally = tallies[result.game]
                    tally.games += result.games
                    tally.actions += result.actions
                    tally.full += result.full
                    tally.cpu += result.cpu
                    tally.violations.extend(result.violations)
                    for line in result.violations[:5]:
                        print(f"VIOLATION {line}", file=out, flush=True)
                now = time.perf_counter()
                if now - last_print > 30 or not (queue or pending):
                    last_print = now
                    _progress(tallies, games, now - began, out)
        except KeyboardInterrupt:
            pool.shutdown(wait=False, cancel_futures=True)
            print("soak: interrupted", file=out, flush=True)
            return False
    broken = sum(len(t.violations) for t in tallies.values())
    elapsed = time.perf_counter() - began
    total = sum(t.games for t in tallies.values())
    print(f"soak: {'FAILED, ' + str(broken) + ' violation(s)' if broken else 'ok'}:"
          f" {total} games in {elapsed:.0f} s ({total / elapsed:.1f} games/s)",
          file=out, flush=True)
    return broken == 0


def _progress(tallies: dict[str, _Tally], games: int, elapsed: float, out: Any) -> None:
    for name, t in tallies.items():
        rate = t.games / t.cpu if t.cpu else 0.0
        print(f"  {name:14} {t.games:>9}/{games} games  {t.actions:>12} actions"
              f"  {t.full:>5} full  {rate:8.1f} games per CPU second"
              f"  {len(t.violations)} violations", file=out, flush=True)
    print(f"  ({elapsed:.0f} s elapsed)", file=out, flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line of ``make soak``."""
    parser = argparse.ArgumentParser(prog="python -m kartentisch.testing.soak",
                                     description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=1_000_000, help="games per game")
    parser.add_argument("--workers", type=int, default=2, help="worker processes")
    parser.add_argument("--seed", type=int, default=2026, help="master seed")
    parser.add_argument("--full-every", type=int, default=FULL_EVERY,
                        help="every n-th game runs the full conformance check (0: never)")
    parser.add_argument("--chunk", type=int, default=CHUNK, help="games per worker task")
    parser.add_argument("game", nargs="*", help="games to soak (default: every game)")
    args = parser.parse_args(argv)
    names = args.game or list_games()
    if args.games < 1 or args.workers < 1 or args.chunk < 1:
        parser.error("--games, --workers and --chunk must be at least 1")
    ok = soak(names, args.games, args.workers, args.seed, args.full_every, args.chunk)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
