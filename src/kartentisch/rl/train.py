"""Train the ``learned`` bot: Deep Monte-Carlo through the batch stepper (PyTorch on the CPU).

Deep Monte-Carlo (DMC, as in DouZero) learns an action-value network Q(observation, action)
by regressing it on Monte-Carlo returns: games are played by the current network (epsilon-
greedy over the legal actions' values), every chosen (observation, action) pair is stored
with the return its seat finally got, and the network is fitted to those returns by mean
squared error. No bootstrapping, no policy gradient: it suits card games with masked,
varying action sets and long, noisy episodes.

Details of this implementation:

* Games run in a :class:`~kartentisch.rl.batch.BatchStepper` (``--num-envs`` at once); each
  seat of each game is, per game, the learner (epsilon-greedy) or an opponent bot from the
  registry (``--opponents learner:0.6,random:0.2,heuristic:0.2``); only the learner's
  decisions are stored.
* Target (``--target``): ``game`` is the game's return. ``deal`` (the default for Krass
  Kariert, a game of many deals) gives each decision the outcome of its deal instead: -1 for
  each player who gave up a chip, the others sharing those losses as the game's returns do;
  the last deal's outcome is the game's return. Shorter horizons, less noise.
  ``pack`` (the default for Casino) gives each decision the points its side made in its
  pack less the mean of the other sides' points, divided by 11 (the points a pack holds
  besides sweeps): a dense signal that points the same way as winning the game.
* A ring buffer (float16) of the latest ``--buffer`` samples; one Adam step on a batch of
  ``--batch`` samples per ``--batch // 2`` new samples, so each sample is used about twice.
* Every ``--eval-minutes`` the network is exported to ``<out>/<game>.npz`` (numpy weights, see
  :mod:`kartentisch.rl.dmc`), played against random and heuristic bots (the learner in each
  seat in turn, fixed deals) and the results go to ``<out>/curve.json`` and the learning
  curve ``<out>/curve.png``; a checkpoint (``<out>/checkpoint.pt``) makes the run resumable:
  run the same command again and it goes on where it stopped, up to ``--minutes`` in all.

``kartentisch-train --game krass-kariert --minutes 45 --out runs/kk`` (needs the ``train``
extra: PyTorch's CPU build).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import signal
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

import numpy as np

from kartentisch.arena.stats import wilson_interval
from kartentisch.bots.registry import make_bot
from kartentisch.core.registry import descriptor, load_game
from kartentisch.core.rng import derive_seed
from kartentisch.rl.batch import BatchStepper
from kartentisch.rl.dmc import QNetwork
from kartentisch.rl.encodings import encoding_for
from kartentisch.rl.learned import LearnedBot
from kartentisch.rl.rewards import deal_result, pack_result

LEARNER = "learner"


def _torch() -> Any:
    try:
        import torch
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise SystemExit("training needs PyTorch: pip install 'kartentisch[train]'") from exc
    return torch


def build_network(torch: Any, obs_size: int, feature_size: int, hidden: Sequence[int]) -> Any:
    """The PyTorch twin of :class:`~kartentisch.rl.dmc.QNetwork`."""
    nn = torch.nn
    h1, h2 = hidden

    class Net(nn.Module):  # type: ignore[misc, name-defined]
        def __init__(self) -> None:
            super().__init__()
            self.obs = nn.Linear(obs_size, h1)
            self.act = nn.Linear(feature_size, h1, bias=False)
            self.l2 = nn.Linear(h1, h2)
            self.l3 = nn.Linear(h2, 1)

        def forward(self, o: Any, f: Any) -> Any:
            h = torch.relu(self.obs(o) + self.act(f))
            return self.l3(torch.relu(self.l2(h))).squeeze(-1)

        def score(self, o: Any, f: Any, rows: Any) -> Any:
            h = torch.relu(self.obs(o)[rows] + self.act(f))
            return self.l3(torch.relu(self.l2(h))).squeeze(-1)

    return Net()


def export(net: Any, game: str, info: dict[str, Any]) -> QNetwork:
    """The numpy network of the PyTorch one."""
    def a(t: Any) -> Any:
        return t.detach().cpu().numpy().astype(np.float32)

    return QNetwork(game=game, w_obs=a(net.obs.weight.T), w_act=a(net.act.weight.T),
                    b1=a(net.obs.bias), w2=a(net.l2.weight.T), b2=a(net.l2.bias),
                    w3=a(net.l3.weight.T), b3=a(net.l3.bias), info=info)


@dataclass
class Progress:
    """What a checkpoint keeps besides the weights."""

    seconds: float = 0.0
    games: int = 0
    samples: int = 0
    updates: int = 0
    curve: list[dict[str, Any]] = field(default_factory=list)


def parse_mix(text: str) -> list[tuple[str, float]]:
    """``learner:0.6,random:0.2,heuristic:0.2`` as (name, weight) pairs."""
    out = []
    for part in text.split(","):
        name, _, weight = part.strip().partition(":")
        out.append((name.strip(), float(weight or 1.0)))
    if not any(name == LEARNER for name, _ in out):
        raise SystemExit("--opponents must include learner")
    return out


def evaluate(game: Any, bot: LearnedBot, opponent: str, games: int, seed: int
             ) -> dict[str, float]:
    """The learned bot against ``opponent`` bots, in each seat in turn, on fixed deals."""
    n = game.players
    lost = won = 0
    total = 0.0
    for g in range(games):
        seat_of_learner = g % n
        state = game.new_initial_state(derive_seed(seed, "eval", g // n))
        bots: list[Any] = [bot if s == seat_of_learner else
                           make_bot(opponent, game, derive_seed(seed, "bot", g, s))
                           for s in range(n)]
        while not state.is_terminal():
            seat = state.current_player
            state.apply(bots[seat].act(state.observation(seat), state.legal_actions()))
        returns = state.returns()
        mine = returns[seat_of_learner]
        total += mine
        high, low = max(returns), min(returns)
        if not math.isclose(high, low):
            lost += math.isclose(mine, low)
            won += math.isclose(mine, high)
    lo, hi = wilson_interval(lost, games)
    return {"games": games, "lost": lost, "won": won, "loss_share": lost / games,
            "loss_low": lo, "loss_high": hi, "mean_return": total / games}


def plot_curve(curve: list[dict[str, Any]], path: Path, title: str) -> None:
    """The learning curve: loss share against random and heuristic bots over training time."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    minutes = [p["seconds"] / 60 for p in curve]
    for opponent, colour in (("random", "tab:blue"), ("heuristic", "tab:red")):
        points = [p[opponent] for p in curve if opponent in p]
        if not points:
            continue
        xs = [m for m, p in zip(minutes, curve, strict=True) if opponent in p]
        share = [q["loss_share"] for q in points]
        ax.plot(xs, share, marker="o", color=colour, label=f"against {opponent} bots")
        ax.fill_between(xs, [q["loss_low"] for q in points], [q["loss_high"] for q in points],
                        color=colour, alpha=0.15)
    ax.set_xlabel("training time (minutes)")
    ax.set_ylabel("share of games lost (95% interval)")
    ax.set_title(title)
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


class Trainer:
    """The training run (see the module docstring)."""

    def __init__(self, args: argparse.Namespace) -> None:
        torch = self.torch = _torch()
        torch.set_num_threads(args.threads)
        self.args = args
        self.out = Path(args.out)
        self.out.mkdir(parents=True, exist_ok=True)
        self.game = load_game(args.game, args.players)
        self.name = self.game.spec.name
        self.encoding = encoding_for(self.game)
        self.net = build_network(torch, self.encoding.obs_size, self.encoding.feature_size,
                                 args.hidden)
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=args.lr)
        self.progress = Progress()
        self.rng = np.random.default_rng(args.seed)
        self.mix = parse_mix(args.opponents)
        cap = args.buffer
        self.buf_obs = np.zeros((cap, self.encoding.obs_size), dtype=np.float16)
        self.buf_feat = np.zeros((cap, self.encoding.feature_size), dtype=np.float16)
        self.buf_target = np.zeros(cap, dtype=np.float32)
        self.buf_len = 0
        self.buf_next = 0
        self.new_samples = 0
        self.losses: list[float] = []
        self.checkpoint = self.out / "checkpoint.pt"
        if self.checkpoint.exists() and not args.fresh:
            self._load()

    # ------------------------------------------------------------------ checkpoints
    def _load(self) -> None:
        state = self.torch.load(self.checkpoint, weights_only=False)
        self.net.load_state_dict(state["net"])
        self.optimizer.load_state_dict(state["optimizer"])
        self.progress = Progress(**state["progress"])
        self.rng = np.random.default_rng()
        self.rng.bit_generator.state = state["rng"]
        print(f"resumed from {self.checkpoint}: {self.progress.games} games,"
              f" {self.progress.seconds / 60:.1f} minutes", file=sys.stderr)

    def save(self) -> None:
        p = self.progress
        state = {"net": self.net.state_dict(), "optimizer": self.optimizer.state_dict(),
                 "progress": {"seconds": p.seconds, "games": p.games, "samples": p.samples,
                              "updates": p.updates, "curve": p.curve},
                 "rng": self.rng.bit_generator.state, "args": vars(self.args)}
        tmp = self.checkpoint.with_suffix(".tmp")
        self.torch.save(state, tmp)
        tmp.replace(self.checkpoint)

    def export(self) -> Path:
        p = self.progress
        info = {"algorithm": "deep Monte-Carlo", "players": self.game.players,
                "games": p.games, "samples": p.samples, "updates": p.updates,
                "minutes": round(p.seconds / 60, 1), "hidden": list(self.args.hidden),
                "target": self.args.target, "opponents": self.args.opponents}
        path = self.out / f"{self.name}.npz"
        export(self.net, self.name, info).save(path)
        return path

    # ------------------------------------------------------------------ learning
    def _store(self, obs: np.ndarray[Any, Any], feats: np.ndarray[Any, Any],
               target: float) -> None:
        k = len(obs)
        cap = len(self.buf_target)
        idx = (self.buf_next + np.arange(k)) % cap
        self.buf_obs[idx] = obs
        self.buf_feat[idx] = feats
        self.buf_target[idx] = target
        self.buf_next = int((self.buf_next + k) % cap)
        self.buf_len = min(cap, self.buf_len + k)
        self.new_samples += k
        self.progress.samples += k

    def _learn(self) -> None:
        torch = self.torch
        batch = self.args.batch
        while self.new_samples >= batch // 2 and self.buf_len >= min(4 * batch, 4096):
            self.new_samples -= batch // 2
            idx = self.rng.integers(self.buf_len, size=batch)
            o = torch.from_numpy(self.buf_obs[idx].astype(np.float32))
            f = torch.from_numpy(self.buf_feat[idx].astype(np.float32))
            y = torch.from_numpy(self.buf_target[idx])
            loss = torch.nn.functional.mse_loss(self.net(o, f), y)
            self.optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(self.net.parameters(), 10.0)
            self.optimizer.step()
            self.progress.updates += 1
            self.losses.append(float(loss.detach()))

    # ------------------------------------------------------------------ playing
    def _controllers(self) -> list[str]:
        names = [name for name, _ in self.mix]
        weights = np.array([w for _, w in self.mix], dtype=np.float64)
        weights /= weights.sum()
        n = self.game.players
        while True:
            seats = [names[int(i)] for i in self.rng.choice(len(names), size=n, p=weights)]
            if LEARNER in seats:
                return seats

    def run(self) -> None:
        args = self.args
        torch = self.torch
        stepper = BatchStepper(self.game, args.num_envs, seed=int(self.rng.integers(2**53)),
                               copy=False)
        n = self.game.players
        rows = range(args.num_envs)
        ctrl = [self._controllers() for _ in rows]
        bots: list[dict[int, Any]] = [{} for _ in rows]
        pending_obs: list[list[list[np.ndarray[Any, Any]]]] = [[[] for _ in range(n)]
                                                               for _ in rows]
        pending_feat: list[list[list[np.ndarray[Any, Any]]]] = [[[] for _ in range(n)]
                                                                for _ in rows]
        deal_of = [0 if args.target == "pack" else getattr(t.state, "deal", 0)
                   for t in stepper.tables]
        chips_of = [list(getattr(t.state, "chips", [])) for t in stepper.tables]
        budget = args.minutes * 60
        last_eval = self.progress.seconds
        stop = {"now": False}

        def on_signal(signum: int, frame: FrameType | None) -> None:
            stop["now"] = True

        old = signal.signal(signal.SIGTERM, on_signal)
        from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

        bar = Progress(TextColumn("[bold]{task.description}"), BarColumn(),
                       TextColumn("{task.percentage:>3.0f}%"), TimeElapsedColumn(),
                       TextColumn("{task.fields[status]}"))
        started = time.perf_counter() - self.progress.seconds
        try:
            with bar:
                task = bar.add_task(f"training {self.name}", total=budget,
                                    completed=int(self.progress.seconds), status="")
                while self.progress.seconds < budget and not stop["now"]:
                    self._iteration(stepper, ctrl, bots, pending_obs, pending_feat,
                                    deal_of, chips_of)
                    self.progress.seconds = time.perf_counter() - started
                    if (self.progress.seconds - last_eval >= args.eval_minutes * 60
                            or self.progress.seconds >= budget):
                        last_eval = self.progress.seconds
                        self._checkpoint_and_eval()
                    loss = np.mean(self.losses[-200:]) if self.losses else float("nan")
                    last = self.progress.curve[-1] if self.progress.curve else {}
                    vs = last.get("random", {}).get("loss_share")
                    status = (f"games {self.progress.games}  samples {self.progress.samples}"
                              f"  loss {loss:.3f}"
                              + (f"  lost vs random {vs:.1%}" if vs is not None else ""))
                    bar.update(task, completed=min(self.progress.seconds, budget),
                               status=status)
        except KeyboardInterrupt:
            pass
        finally:
            signal.signal(signal.SIGTERM, old)
            self.save()
            self.export()
        del torch

    def _checkpoint_and_eval(self) -> None:
        path = self.export()
        bot = LearnedBot(self.game, weights=path)
        point: dict[str, Any] = {"seconds": self.progress.seconds, "games": self.progress.games,
                                 "samples": self.progress.samples,
                                 "updates": self.progress.updates,
                                 "loss": float(np.mean(self.losses[-200:])) if self.losses
                                 else None}
        for opponent in ("random", "heuristic"):
            point[opponent] = evaluate(self.game, bot, opponent, self.args.eval_games,
                                       self.args.seed + 7)
        self.progress.curve.append(point)
        (self.out / "curve.json").write_text(json.dumps(self.progress.curve, indent=1))
        plot_curve(self.progress.curve, self.out / "curve.png",
                   f"{self.game.spec.title}, {self.game.players} players: DMC learning curve")
        self.save()

    def _iteration(self, stepper: BatchStepper, ctrl: list[list[str]],
                   bots: list[dict[int, Any]], pending_obs: list[list[list[Any]]],
                   pending_feat: list[list[list[Any]]], deal_of: list[int],
                   chips_of: list[list[int]]) -> None:
        torch = self.torch
        enc = self.encoding
        game = self.game
        observations = stepper.observations()
        tables = stepper.tables
        chosen = [0] * stepper.num_envs
        learner_rows = []
        for i, table in enumerate(tables):
            seat = table.current_player
            legal = stepper.legal_ids(i)
            if len(legal) == 1:
                chosen[i] = legal[0]
                if ctrl[i][seat] != LEARNER:
                    continue
            if ctrl[i][seat] == LEARNER:
                learner_rows.append(i)
                continue
            bot = bots[i].get(seat)
            if bot is None:
                bot = bots[i][seat] = make_bot(ctrl[i][seat], game,
                                               int(self.rng.integers(2**53)))
            actions = table.state.legal_actions()
            chosen[i] = game.checked_action_id(bot.act(observations[i], actions))
        if learner_rows:
            obs = np.stack([enc.encode(observations[i]) for i in learner_rows])
            feats = [enc.features(observations[i], stepper.legal_ids(i)) for i in learner_rows]
            counts = [len(f) for f in feats]
            allf = np.concatenate(feats)
            row_of = np.repeat(np.arange(len(learner_rows)), counts)
            with torch.no_grad():
                q = self.net.score(torch.from_numpy(obs), torch.from_numpy(allf),
                                   torch.from_numpy(row_of)).numpy()
            start = 0
            eps = self.args.epsilon
            for j, i in enumerate(learner_rows):
                k = counts[j]
                pick = (int(self.rng.integers(k)) if self.rng.random() < eps
                        else int(np.argmax(q[start:start + k])))
                chosen[i] = stepper.legal_ids(i)[pick]
                seat = tables[i].current_player
                pending_obs[i][seat].append(obs[j])
                pending_feat[i][seat].append(feats[j][pick])
                start += k
        before = [t.state for t in tables] if self.args.target == "pack" else []
        rewards, dones = stepper.step_actions(chosen)
        deal_target = self.args.target == "deal"
        for i, table in enumerate(tables):
            if before and len(before[i].pack_results) > deal_of[i]:
                deal_of[i] = len(before[i].pack_results)
                self._flush(pending_obs[i], pending_feat[i], self._pack_targets(before[i]))
            if dones[i]:
                self._flush(pending_obs[i], pending_feat[i], [float(r) for r in rewards[i]])
                self.progress.games += 1
                ctrl[i] = self._controllers()
                bots[i] = {}
                deal_of[i] = 0 if before else getattr(table.state, "deal", 0)
                chips_of[i] = list(getattr(table.state, "chips", []))
            elif deal_target and table.state.deal != deal_of[i]:
                chips = table.state.chips
                targets = deal_result(chips_of[i], chips)
                if targets is not None:
                    self._flush(pending_obs[i], pending_feat[i], targets)
                deal_of[i] = table.state.deal
                chips_of[i] = list(chips)
        self._learn()

    def _pack_targets(self, state: Any) -> list[float]:
        """The ``pack`` target of each seat for the pack ``state`` has just scored."""
        return pack_result(self.game, state)

    def _flush(self, pending_obs: list[list[Any]], pending_feat: list[list[Any]],
               targets: list[float]) -> None:
        for seat, target in enumerate(targets):
            if pending_obs[seat]:
                self._store(np.stack(pending_obs[seat]), np.stack(pending_feat[seat]), target)
                pending_obs[seat].clear()
                pending_feat[seat].clear()


def main(argv: Sequence[str] | None = None) -> int:
    """The ``kartentisch-train`` command."""
    parser = argparse.ArgumentParser(
        prog="kartentisch-train", description="Train the learned bot (Deep Monte-Carlo).")
    parser.add_argument("--game", default="krass-kariert")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--minutes", type=float, default=45.0,
                        help="training time in all, resumed runs included")
    parser.add_argument("--out", default=None, help="run directory (default runs/<game>)")
    parser.add_argument("--fresh", action="store_true", help="ignore an existing checkpoint")
    parser.add_argument("--num-envs", type=int, default=32)
    parser.add_argument("--epsilon", type=float, default=0.05)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--buffer", type=int, default=65536)
    parser.add_argument("--hidden", type=int, nargs=2, default=[256, 128])
    parser.add_argument("--opponents", default="learner:0.6,random:0.2,heuristic:0.2")
    parser.add_argument("--target", choices=("game", "deal", "pack"), default=None,
                        help="the return each decision learns (default: the game's own,"
                             " from its descriptor)")
    parser.add_argument("--eval-minutes", type=float, default=5.0)
    parser.add_argument("--eval-games", type=int, default=40)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.out is None:
        args.out = f"runs/{args.game}"
    described = descriptor(args.game)
    if args.target is None:
        args.target = described.train_target
    if args.target not in described.train_targets:
        raise SystemExit(f"--target {args.target} is not one of {args.game}'s: "
                         f"{', '.join(described.train_targets)}")
    random.seed(args.seed)
    trainer = Trainer(args)
    trainer.run()
    print(f"weights: {trainer.out / (trainer.name + '.npz')}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
