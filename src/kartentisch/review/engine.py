"""The review of one seat of a finished game, and its JSON document.

:func:`positions_of` replays a record and keeps, for every move of the reviewed seat, what
that seat knew then (its observation), its legal moves and the move it played; nothing else
of the state. :func:`review_positions` rates those decisions (in worker processes when asked:
each decision has its own seed, so the result does not depend on how many there are) and
:func:`review_record` does both and writes the document ``docs/review.md`` describes.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, Final

from kartentisch.core.errors import KartentischError
from kartentisch.core.protocol import Game
from kartentisch.core.records import GameRecord
from kartentisch.core.registry import load_game
from kartentisch.core.rng import derive_seed
from kartentisch.review.budget import FULL_BUDGET, ReviewBudget
from kartentisch.review.marks import mark_of, thresholds
from kartentisch.review.reasons import REVIEW_REASONS
from kartentisch.review.search import Estimate, MoveEstimate, chance_of, estimate_decision

REVIEW_FORMAT: Final = "kartentisch-review/1"
"""The ``format`` of a review document."""

JSON = dict[str, Any]
Progress = Callable[[int, int], None]
"""``progress(done, total)`` after each decision."""


@dataclass(frozen=True, slots=True)
class Position:
    """One decision of the reviewed seat: what it knew, could do and did.

    ``move`` numbers the decision's move in the game from 1 (the replay's frame after it).
    """

    move: int
    observation: Any
    legal: tuple[int, ...]
    played: int


def positions_of(record: GameRecord, seat: int) -> list[Position]:
    """The decisions of ``seat`` in ``record``'s finished game.

    Raises:
        InvalidRecordError: the record does not replay.
        InvalidSeatError: ``seat`` is not a seat of its game.
        KartentischError: the game is not over (``review.not_finished``).
    """
    game = record.new_game()
    game.check_seat(seat)
    final = record.replay()
    if not final.is_terminal():
        raise REVIEW_REASONS.error(KartentischError, "review.not_finished")
    state = game.new_initial_state(record.seed)
    out: list[Position] = []
    for index, aid in enumerate(_ids(game, record)):
        if state.current_player == seat:
            out.append(Position(index + 1, state.observation(seat),
                                tuple(state.legal_action_ids()), aid))
        state.apply_id(aid)
    return out


def _ids(game: Game[Any, Any, Any], record: GameRecord) -> list[int]:
    state = game.new_initial_state(record.seed)
    ids = []
    for text in record.actions:
        aid = game.action_to_id(game.parse_action(text, state))
        state.apply_id(aid)
        ids.append(aid)
    return ids


@functools.lru_cache(maxsize=16)
def _game(name: str, players: int, options: str) -> Game[Any, Any, Any]:
    return load_game(name, players, json.loads(options))


Job = tuple[str, int, str, int, Position, dict[str, Any], int]
"""One decision to rate: game, players, options (JSON text), seed, position, the bot's
parameters and the top-up (plain data, so it travels to a worker process)."""


def rate(job: Job) -> JSON:
    """One decision's entry of the review (runs in a worker process or inline)."""
    name, players, options, seed, position, params, top_up = job
    game = _game(name, players, options)
    found = estimate_decision(game, position.observation, position.legal, position.played,
                              seed, params, top_up)
    entry: JSON = {"move": position.move, "played": _move(game, position.played)}
    if isinstance(found, str):
        entry["skipped"] = found
        return entry
    return {**entry, **_rated(game, found)}


def _move(game: Game[Any, Any, Any], aid: int) -> JSON:
    return {"id": aid, "text": str(game.format_action(game.action_from_id(aid)))}


def _chance(game: Game[Any, Any, Any], move: MoveEstimate) -> tuple[float, float | None]:
    chance = chance_of(game, move.mean)
    if not math.isfinite(move.se):
        return chance, None
    spread = (chance_of(game, move.mean + move.se) - chance_of(game, move.mean - move.se)) / 2
    return chance, spread


def _rated(game: Game[Any, Any, Any], found: Estimate) -> JSON:
    played, played_se = _chance(game, found.played)
    best, best_se = _chance(game, found.best)
    same = found.best.action == found.played.action
    loss = 0.0 if same else max(0.0, best - played)
    if same:
        loss_se: float | None = 0.0
    elif played_se is None or best_se is None:
        loss_se = None
    else:
        loss_se = math.hypot(played_se, best_se)
    mark = None if loss_se is None else mark_of(loss, loss_se)
    return {
        "played": {**_move(game, found.played.action), "chance": _round(played),
                   "se": _round(played_se), "visits": found.played.visits},
        "best": {**_move(game, found.best.action), "chance": _round(best),
                 "se": _round(best_se), "visits": found.best.visits},
        "loss": _round(loss), "loss_se": _round(loss_se), "mark": mark,
        "candidates": found.candidates, "iterations": found.iterations}


def _round(value: float | None) -> float | None:
    """Four decimals: the document stays readable and equal across machines' last bits."""
    return None if value is None else round(value, 4)


def rate_jobs(game_name: str, players: int, options: dict[str, Any], seat: int,
              positions: Sequence[Position], *, seed: int, budget: ReviewBudget) -> list[Job]:
    """The jobs that rate ``positions`` (each decision seeded from ``seed``, the seat and the
    move number, so the order and place they run in change nothing)."""
    options_text = json.dumps(options, sort_keys=True)
    params, top_up = budget.params(game_name), budget.top_up
    return [(game_name, players, options_text, derive_seed(seed, "review", seat, p.move), p,
             params, top_up) for p in positions]


def review_positions(game_name: str, players: int, options: dict[str, Any], seat: int,
                     positions: Sequence[Position], *, seed: int = 0,
                     budget: ReviewBudget = FULL_BUDGET, workers: int = 1,
                     progress: Progress | None = None) -> list[JSON]:
    """The entries of ``positions`` (see :func:`review_record`), in their order."""
    jobs = rate_jobs(game_name, players, options, seat, positions, seed=seed, budget=budget)
    out: list[JSON] = []
    if workers <= 1 or len(jobs) < 2:
        for job in jobs:
            out.append(rate(job))
            if progress is not None:
                progress(len(out), len(jobs))
        return out
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for entry in pool.map(rate, jobs):
            out.append(entry)
            if progress is not None:
                progress(len(out), len(jobs))
    return out


def summary(entries: Sequence[JSON], returns: Sequence[float], seat: int) -> JSON:
    """The counts of a review: decisions, reviewed ones, agreements, marks, average loss."""
    rated = [e for e in entries if "skipped" not in e]
    losses = [e["loss"] for e in rated]
    top = max(returns) if returns else 0.0
    return {
        "decisions": len(entries),
        "reviewed": len(rated),
        "forced": sum(1 for e in entries if e.get("skipped") == "forced"),
        "obvious": sum(1 for e in entries if e.get("skipped") == "obvious"),
        "agreed": sum(1 for e in rated if e["best"]["id"] == e["played"]["id"]),
        "inaccuracies": sum(1 for e in rated if e["mark"] == "inaccuracy"),
        "mistakes": sum(1 for e in rated if e["mark"] == "mistake"),
        "average_loss": _round(sum(losses) / len(losses)) if losses else 0.0,
        "result": returns[seat] if returns else None,
        "won": bool(returns) and returns[seat] == top and sum(
            1 for r in returns if r == top) < len(returns),
    }


def review_record(record: GameRecord, seat: int, *, seed: int = 0,
                  budget: ReviewBudget = FULL_BUDGET, workers: int = 1,
                  progress: Progress | None = None) -> JSON:
    """The review document of ``seat`` in ``record``'s finished game.

    The same record, seat, seed and budget give the same document (every decision is
    searched with its own seed, derived from ``seed``, the seat and the move number).
    """
    positions = positions_of(record, seat)
    entries = review_positions(record.game, record.players, record.options, seat, positions,
                               seed=seed, budget=budget, workers=workers, progress=progress)
    return review_document(record, seat, entries, seed=seed, budget=budget)


def review_document(record: GameRecord, seat: int, entries: Sequence[JSON], *, seed: int,
                    budget: ReviewBudget) -> JSON:
    """The review document from the rated ``entries`` of ``seat``'s decisions."""
    returns = list(record.replay().returns())
    return {
        "format": REVIEW_FORMAT, "game": record.game, "players": record.players,
        "options": record.options, "seed": record.seed, "seat": seat, "review_seed": seed,
        "budget": budget.to_json(), "thresholds": thresholds(), "returns": returns,
        "moves": len(record.actions), "decisions": list(entries),
        "summary": summary(entries, returns, seat)}
