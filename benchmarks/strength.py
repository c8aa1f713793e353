"""How strong are the search bots? Arena rows against each game's heuristic bot.

Each row plays one search bot against heuristic bots (seats rotated, duplicate deals) and
reports the share that matters for the row's target with its 95% Wilson interval, plus the
search bot's median and maximum seconds per move. Each row is decided by a sequential
probability ratio test (:mod:`kartentisch.arena.sprt`): "met" at ``target -+ delta`` against
"missed" at ``target +- delta``, error rates ``--alpha`` and ``--beta`` (5% each by default),
checked after every batch. A row ends when the test decides, when ``--games`` are played or
its time allowance is spent (then it says "undecided"); the table says how many were played.
The Wilson interval is printed beside the decision for reference only: after a sequential
stop it is not an exact 95% interval.

    .venv/bin/python benchmarks/strength.py --games 1000 --workers 2
    .venv/bin/python benchmarks/strength.py --rows kk-ismcts,casino-ismcts --minutes 5

Timings are wall-clock on whatever else the machine is doing; compare them with care.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path

from kartentisch.arena import run_arena, wilson_interval
from kartentisch.arena.schedule import derive_seed
from kartentisch.arena.sprt import Decision, ShareSPRT


@dataclass(frozen=True)
class Row:
    key: str
    game: str
    lineup: str
    metric: str
    """``loss`` (target is an upper bound) or ``win`` (a lower bound)."""
    target: float
    delta: float
    """Half-width of the SPRT's indifference zone around the target."""


ROWS = [
    Row("kk-ismcts", "krass-kariert", "ismcts,heuristic*3", "loss", 0.10, 0.03),
    Row("kk-pimc", "krass-kariert", "pimc,heuristic*3", "loss", 0.10, 0.03),
    Row("casino-ismcts", "casino", "ismcts,heuristic", "win", 0.70, 0.05),
    Row("casino-pimc", "casino", "pimc,heuristic", "win", 0.70, 0.05),
    Row("krumme20-ismcts", "krumme20", "ismcts,heuristic*2", "win", 0.50, 0.05),
    Row("krumme20-pimc", "krumme20", "pimc,heuristic*2", "win", 0.50, 0.05),
    # Issue 29: the learned bot against the targets "clearly" better than an equal seat
    # (met at target - delta, missed at the parity share), beside the trivial baseline and
    # the heuristic itself in the tested seat, on the same rows of the same table.
    Row("kk-learned", "krass-kariert", "learned,heuristic*3", "loss", 0.225, 0.025),
    Row("kk-first-legal", "krass-kariert", "first-legal,heuristic*3", "loss", 0.225, 0.025),
    Row("kk-heuristic", "krass-kariert", "heuristic*4", "loss", 0.225, 0.025),
    Row("casino-learned", "casino", "learned,heuristic", "win", 0.525, 0.025),
    Row("casino-first-legal", "casino", "first-legal,heuristic", "win", 0.525, 0.025),
    Row("krumme20-learned", "krumme20", "learned,heuristic*2", "win", 0.358, 0.025),
    Row("krumme20-first-legal", "krumme20", "first-legal,heuristic*2", "win", 0.358, 0.025),
    Row("krumme20-heuristic", "krumme20", "heuristic*3", "win", 0.358, 0.025),
]
"""The first six rows were the search bots' targets; the learned rows follow issue 29."""


def run_row(row: Row, games: int, workers: int, seed: int, minutes: float,
            batch: int, alpha: float = 0.05, beta: float = 0.05,
            resume: tuple[int, int, int] = (0, 0, 0)) -> dict[str, object]:
    """Play ``row`` in batches until the SPRT decides, ``games`` are played, or time is up.

    ``resume`` = (hits, games, batches) continues an earlier run of the same row and seed
    with its counts: the next batch is the one that run would have played next.
    """
    bot = row.lineup.split(",")[0]
    sprt = ShareSPRT(target=row.target, delta=row.delta, upper=row.metric == "loss",
                     alpha=alpha, beta=beta)
    hits, played, index = resume
    sprt.add(hits, played)
    times: list[float] = []
    other_times: list[float] = []
    started = time.perf_counter()
    stop = "games"
    while played < games:
        result = run_arena(row.game, row.lineup, min(batch, games - played),
                           seed=derive_seed(seed, row.key, index), workers=workers)
        index += 1
        bot = result.labels[0]  # the tested seat's entrant ("heuristic" of heuristic*4)
        st = result.stats[bot]
        new_hits = st.losses if row.metric == "loss" else st.wins
        hits += new_hits
        played += st.games
        decision = sprt.add(new_hits, st.games)
        print(f"{row.key}: {hits}/{played} {row.metric}, llr {sprt.llr:+.2f} in "
              f"[{sprt.lower_bound:.2f}, {sprt.upper_bound:.2f}], "
              f"{time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
        times.extend(st.move_seconds)
        for label, other in result.stats.items():
            if label != bot:
                other_times.extend(other.move_seconds)
        if decision is not Decision.UNDECIDED:
            stop = "sprt"
            break
        if time.perf_counter() - started > minutes * 60:
            stop = "time"
            break
    lo, hi = wilson_interval(hits, played)
    share = hits / played if played else 0.0
    return {
        "row": row.key, "game": row.game, "lineup": row.lineup, "metric": row.metric,
        "target": row.target, "games": played, "share": share, "interval": [lo, hi],
        "decision": sprt.decision.value, "stopped_by": stop,
        "sprt": {"p_met": sprt.p_met, "p_missed": sprt.p_missed, "alpha": alpha,
                 "beta": beta, "llr": sprt.llr, "bounds": [sprt.lower_bound,
                                                          sprt.upper_bound]},
        "median_move_s": statistics.median(times) if times else 0.0,
        "max_move_s": max(times) if times else 0.0, "moves": len(times),
        "heuristic_median_move_s": statistics.median(other_times) if other_times else 0.0,
        "heuristic_max_move_s": max(other_times) if other_times else 0.0,
        "wall_s": time.perf_counter() - started,
    }


def markdown(results: list[dict[str, object]]) -> str:
    """The rows as a Markdown table."""
    lines = ["| row | lineup | games | measured share (Wilson 95%) | target | SPRT | "
             "s/move median / max | heuristic s/move median / max | stopped by |",
             "|---|---|---:|---|---|---|---|---|---|"]
    for r in results:
        lo, hi = r["interval"]  # type: ignore[misc]
        sign = "≤" if r["metric"] == "loss" else "≥"
        decided = r.get("decision", "n/a")  # rows from before the SPRT have none
        lines.append(
            f"| {r['row']} | `{r['lineup']}` | {r['games']} | "
            f"{r['metric']} {r['share']:.1%} [{lo:.1%}, {hi:.1%}] | "
            f"{r['metric']} {sign} {r['target']:.0%} | {decided} | "
            f"{r['median_move_s']:.3f} / {r['max_move_s']:.3f} | "
            f"{r.get('heuristic_median_move_s', 0.0):.4f} / "
            f"{r.get('heuristic_max_move_s', 0.0):.3f} | {r['stopped_by']} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per row at most")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--minutes", type=float, default=60.0, help="time allowance per row")
    parser.add_argument("--batch", type=int, default=24, help="games between SPRT checks")
    parser.add_argument("--alpha", type=float, default=0.05,
                        help="SPRT: chance of calling a missed target met")
    parser.add_argument("--beta", type=float, default=0.05,
                        help="SPRT: chance of calling a met target missed")
    parser.add_argument("--resume", default="0,0,0",
                        help="HITS,GAMES,BATCHES of an earlier run of one row to continue")
    parser.add_argument("--rows", default=",".join(r.key for r in ROWS))
    parser.add_argument("--weights", default=None,
                        help="GAME=PATH[,GAME=PATH]: the learned rows play these weights")
    parser.add_argument("--json", type=Path, help="append each row as a JSON line here")
    parser.add_argument("--table", type=Path,
                        help="only print the Markdown table of the rows in this JSON Lines file")
    args = parser.parse_args()
    if args.table:
        rows = [json.loads(line) for line in args.table.read_text().splitlines() if line]
        print(markdown(rows))
        return
    wanted = [k.strip() for k in args.rows.split(",") if k.strip()]
    known = {r.key: r for r in ROWS}
    unknown = [k for k in wanted if k not in known]
    if unknown:
        parser.error(f"unknown rows {unknown}; known: {', '.join(known)}")
    weights = dict(part.split("=", 1) for part in args.weights.split(",")) if args.weights \
        else {}
    results = []
    for key in wanted:
        row = known[key]
        if row.game in weights and row.lineup.startswith("learned,"):
            row = replace(row, lineup=f"learned:weights={weights[row.game]}"
                                      + row.lineup.removeprefix("learned"))
        result = run_row(row, args.games, args.workers, args.seed, args.minutes,
                         args.batch, args.alpha, args.beta,
                         tuple(int(x) for x in args.resume.split(",")))  # type: ignore[arg-type]
        results.append(result)
        print(json.dumps(result), flush=True)
        if args.json:
            with args.json.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps(result) + "\n")
    print(markdown(results))


if __name__ == "__main__":
    main()
