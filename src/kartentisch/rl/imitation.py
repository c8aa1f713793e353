"""Behaviour cloning: the ``learned`` bot's network fitted to a strong teacher's choices.

Deep Monte-Carlo from scratch needs millions of games before its choices beat a good
hand-written player; a teacher's choices teach the same network in minutes. This module

1. plays games with a teacher bot from the registry in every seat (``--teacher heuristic``,
   or a search bot where time allows) and records, at every decision with more than one legal
   action, what the seat knew (the encoding of its observation, never the state), the
   features of every legal action and the index of the one the teacher chose, plus the
   seat's final return;
2. fits the DMC network (:func:`kartentisch.rl.train.build_network`) to those decisions with
   a cross-entropy loss over each decision's legal actions (the network's values are the
   logits), plus a small mean-squared error pulling the chosen action's value towards the
   seat's return, so the values keep the scale of returns and DMC can fine-tune them
   (``kartentisch-train --init``);
3. exports the numpy weights (:mod:`kartentisch.rl.dmc`) with ``info`` saying how they
   were made: method, teacher, games, decisions, wall time, machine.

``python -m kartentisch.rl.imitation --game krumme20 --games 2000 --out runs/k20-bc``
(needs PyTorch, the ``train`` extra).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from kartentisch.bots.registry import build_bot
from kartentisch.core.registry import load_game
from kartentisch.core.rng import derive_seed
from kartentisch.rl.dmc import QNetwork, save_npz
from kartentisch.rl.encodings import encoding_for

F16 = npt.NDArray[np.float16]
I64 = npt.NDArray[np.int64]


@dataclass
class Demonstrations:
    """Recorded decisions: decision ``d`` has the observation ``obs[d]``, the legal actions'
    features ``feats[start[d]:start[d + 1]]``, the teacher's choice ``chosen[d]`` (an index
    into those rows) and the return ``returns[d]`` its seat finally got."""

    obs: F16
    feats: F16
    start: I64
    chosen: I64
    returns: npt.NDArray[np.float32]
    games: int
    seconds: float

    def __len__(self) -> int:
        return len(self.chosen)

    def save(self, path: str | Path) -> None:
        save_npz(path, obs=self.obs, feats=self.feats, start=self.start,
                 chosen=self.chosen, returns=self.returns,
                 games=np.array(self.games), seconds=np.array(self.seconds))

    @classmethod
    def load(cls, path: str | Path) -> Demonstrations:
        with np.load(path, allow_pickle=False) as d:
            return cls(d["obs"], d["feats"], d["start"], d["chosen"], d["returns"],
                       int(d["games"]), float(d["seconds"]))

    @classmethod
    def join(cls, parts: Sequence[Demonstrations]) -> Demonstrations:
        """Several recordings as one (their decisions one after another)."""
        offsets = np.cumsum([0] + [len(p.feats) for p in parts[:-1]])
        start = np.concatenate([p.start[:-1] + off for p, off in zip(parts, offsets,
                                                                     strict=True)]
                               + [np.array([sum(len(p.feats) for p in parts)])])
        return cls(np.concatenate([p.obs for p in parts]),
                   np.concatenate([p.feats for p in parts]), start.astype(np.int64),
                   np.concatenate([p.chosen for p in parts]),
                   np.concatenate([p.returns for p in parts]),
                   sum(p.games for p in parts), sum(p.seconds for p in parts))


def collect(game_name: str, teacher: str, games: int, *, players: int | None = None,
            seed: int = 0, opponents: str | None = None, driver: str | None = None,
            ) -> Demonstrations:
    """Play ``games`` games and record the teacher's decisions (see the module docstring).

    ``teacher``, ``opponents`` and ``driver`` are bot specs (``heuristic``,
    ``ismcts:iterations=50``, ``learned:weights=runs/x.npz``); without ``opponents`` the
    teacher sits in every seat, with them the teacher sits in one seat (in turn) and only its
    decisions are recorded. With a ``driver`` (DAgger, Ross et al. 2011) the driver plays the
    teacher's seats and the teacher only labels the positions the driver reaches, so the
    network learns to recover from its own mistakes. Each bot sees its own seat's
    observation and the legal actions only, as in the arena.
    """
    game = load_game(game_name, players)
    enc = encoding_for(game)
    n = game.players
    obs: list[np.ndarray[Any, Any]] = []
    feats: list[np.ndarray[Any, Any]] = []
    counts: list[int] = []
    chosen: list[int] = []
    returns: list[float] = []
    started = time.perf_counter()
    for g in range(games):
        state = game.new_initial_state(derive_seed(seed, "deal", g))
        teacher_seats = set(range(n)) if opponents is None else {g % n}
        bots = [build_bot(teacher if s in teacher_seats else str(opponents), game,
                          derive_seed(seed, "bot", g, s)) for s in range(n)]
        drivers = {s: build_bot(driver, game, derive_seed(seed, "driver", g, s))
                   for s in teacher_seats} if driver is not None else {}
        seat_of: list[int] = []
        while not state.is_terminal():
            seat = state.current_player
            legal = state.legal_actions()
            observation = state.observation(seat)
            action = bots[seat].act(observation, legal)
            if seat in teacher_seats and len(legal) > 1:
                ids = [game.checked_action_id(a) for a in legal]
                obs.append(enc.encode(observation).astype(np.float16))
                feats.append(enc.features(observation, ids).astype(np.float16))
                counts.append(len(ids))
                chosen.append(legal.index(action))
                seat_of.append(seat)
            if seat in drivers:
                action = drivers[seat].act(observation, legal)
            state.apply(action)
        final = state.returns()
        returns.extend(float(final[s]) for s in seat_of)
    start = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    return Demonstrations(
        obs=np.stack(obs) if obs else np.zeros((0, enc.obs_size), np.float16),
        feats=(np.concatenate(feats) if feats
               else np.zeros((0, enc.feature_size), np.float16)),
        start=start, chosen=np.array(chosen, dtype=np.int64),
        returns=np.array(returns, dtype=np.float32), games=games,
        seconds=time.perf_counter() - started)


def _torch() -> Any:
    try:
        import torch
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise SystemExit("imitation needs PyTorch: pip install 'kartentisch[train]'") from exc
    return torch


def machine() -> str:
    """A short description of this machine for a weights file's ``info``."""
    return f"{platform.machine()}, {os.cpu_count()} CPUs, {platform.system()}"


@dataclass
class FitResult:
    """The fitted network and how well it agrees with the teacher on held-out decisions."""

    net: Any
    train_accuracy: float
    held_out_accuracy: float
    epochs: int
    seconds: float


def _batch_loss(torch: Any, net: Any, demos: Demonstrations, idx: I64,
                value_weight: float) -> tuple[Any, Any]:
    """The loss of the decisions ``idx`` and whether each argmax is the teacher's choice."""
    lo = demos.start[idx]
    hi = demos.start[idx + 1]
    counts = hi - lo
    rows = np.concatenate([np.arange(a, b) for a, b in zip(lo, hi, strict=True)])
    row_of = np.repeat(np.arange(len(idx)), counts)
    pos = rows - np.repeat(lo, counts)
    obs = torch.from_numpy(demos.obs[idx].astype(np.float32))
    feats = torch.from_numpy(demos.feats[rows].astype(np.float32))
    q = net.score(obs, feats, torch.from_numpy(row_of))
    width = int(counts.max())
    logits = torch.full((len(idx), width), -1e9)
    logits[torch.from_numpy(row_of), torch.from_numpy(pos)] = q
    target = torch.from_numpy(demos.chosen[idx])
    loss = torch.nn.functional.cross_entropy(logits, target)
    if value_weight:
        chosen_q = logits.gather(1, target[:, None])[:, 0]
        loss = loss + value_weight * torch.nn.functional.mse_loss(
            chosen_q, torch.from_numpy(demos.returns[idx]))
    right = (logits.argmax(1) == target).float()
    return loss, right


def fit(demos: Demonstrations, obs_size: int, feature_size: int, *,
        hidden: Sequence[int] = (256, 128), epochs: int = 20, batch: int = 256,
        lr: float = 1e-3, value_weight: float = 0.1, held_out: float = 0.1, seed: int = 0,
        minutes: float | None = None, init: QNetwork | None = None,
        log: Any = None) -> FitResult:
    """Fit the DMC network to ``demos`` (see the module docstring); ``held_out`` of the
    decisions are kept apart to measure agreement with the teacher. Stops after ``epochs``
    or ``minutes``, whichever comes first."""
    from kartentisch.rl.train import build_network, load_numpy

    torch = _torch()
    torch.manual_seed(seed)
    net = build_network(torch, obs_size, feature_size, hidden)
    if init is not None:
        load_numpy(torch, net, init)
    optimizer = torch.optim.Adam(net.parameters(), lr=lr)
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(demos))
    cut = int(len(order) * (1 - held_out))
    train_idx, test_idx = order[:cut], order[cut:]
    started = time.perf_counter()
    train_acc = test_acc = 0.0
    done = 0
    for epoch in range(epochs):
        net.train()
        rng.shuffle(train_idx)
        rights = []
        for b in range(0, len(train_idx), batch):
            loss, right = _batch_loss(torch, net, demos, train_idx[b:b + batch], value_weight)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            rights.append(right.detach())
        train_acc = float(torch.cat(rights).mean()) if rights else 0.0
        test_acc = accuracy(torch, net, demos, test_idx)
        done = epoch + 1
        if log is not None:
            print(f"epoch {done}: agrees with the teacher {train_acc:.1%} (training),"
                  f" {test_acc:.1%} (held out), {time.perf_counter() - started:.0f} s",
                  file=log, flush=True)
        if minutes is not None and time.perf_counter() - started > minutes * 60:
            break
    return FitResult(net, train_acc, test_acc, done, time.perf_counter() - started)


def accuracy(torch: Any, net: Any, demos: Demonstrations, idx: I64) -> float:
    """The share of the decisions ``idx`` where the network's best action is the teacher's."""
    if len(idx) == 0:
        return 0.0
    net.eval()
    with torch.no_grad():
        rights = [_batch_loss(torch, net, demos, idx[b:b + 4096], 0.0)[1]
                  for b in range(0, len(idx), 4096)]
    return float(torch.cat(rights).mean())


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m kartentisch.rl.imitation``: record a teacher, fit, export."""
    from kartentisch.rl.train import export

    parser = argparse.ArgumentParser(
        prog="kartentisch-imitate",
        description="Train the learned bot by behaviour cloning of a teacher bot.")
    parser.add_argument("--game", default="krass-kariert")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--teacher", default="heuristic", help="bot spec of the teacher")
    parser.add_argument("--opponents", default=None,
                        help="bot spec in the other seats (default: the teacher everywhere)")
    parser.add_argument("--driver", default=None,
                        help="bot spec that plays the teacher's seats while the teacher"
                             " labels (DAgger), e.g. learned:weights=runs/x/game.npz")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--demos", nargs="*", default=(),
                        help="recordings (.npz) to use instead of / beside new games")
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--minutes", type=float, default=None, help="fitting time at most")
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--value-weight", type=float, default=0.1)
    parser.add_argument("--hidden", type=int, nargs=2, default=[256, 128])
    parser.add_argument("--init", default=None, help="start from these numpy weights")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=None, help="run directory (default runs/<game>-bc)")
    args = parser.parse_args(argv)
    out = Path(args.out or f"runs/{args.game}-bc")
    out.mkdir(parents=True, exist_ok=True)
    game = load_game(args.game, args.players)
    enc = encoding_for(game)
    parts = [Demonstrations.load(p) for p in args.demos]
    if args.games > 0:
        demos = collect(args.game, args.teacher, args.games, players=args.players,
                        seed=args.seed, opponents=args.opponents, driver=args.driver)
        demos.save(out / "demos.npz")
        print(f"recorded {len(demos)} decisions in {demos.games} games,"
              f" {demos.seconds:.0f} s", file=sys.stderr, flush=True)
        parts.append(demos)
    if not parts:
        raise SystemExit("nothing to learn from: give --games or --demos")
    demos = Demonstrations.join(parts)
    _torch().set_num_threads(args.threads)
    init = QNetwork.load(args.init) if args.init else None
    result = fit(demos, enc.obs_size, enc.feature_size, hidden=args.hidden,
                 epochs=args.epochs, batch=args.batch, lr=args.lr,
                 value_weight=args.value_weight, seed=args.seed, minutes=args.minutes,
                 init=init, log=sys.stderr)
    info = {"method": "behaviour cloning" + (f" from {Path(args.init).name}" if init else ""),
            "teacher": args.teacher, "opponents": args.opponents or args.teacher,
            "driver": args.driver,
            "players": game.players, "games": demos.games, "decisions": len(demos),
            "epochs": result.epochs, "agreement_held_out": round(result.held_out_accuracy, 4),
            "record_seconds": round(demos.seconds), "fit_seconds": round(result.seconds),
            "wall_minutes": round((demos.seconds + result.seconds) / 60, 1),
            "hidden": list(args.hidden), "machine": machine(),
            "date": time.strftime("%Y-%m-%d", time.gmtime())}
    path = out / f"{game.spec.name}.npz"
    export(result.net, game.spec.name, info).save(path)
    (out / "info.json").write_text(json.dumps(info, indent=1))
    print(f"weights: {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
