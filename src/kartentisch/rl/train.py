"""Train the ``learned`` bot: Deep Monte-Carlo with actor processes and a PyTorch learner.

Deep Monte-Carlo (DMC, as in DouZero) learns an action-value network Q(observation, action)
by regressing it on Monte-Carlo returns: games are played by the current network (epsilon-
greedy over the legal actions' values), every chosen (observation, action) pair is stored
with the return its seat finally got, and the network is fitted to those returns by mean
squared error. No bootstrapping, no policy gradient: it suits card games with masked,
varying action sets and long, noisy episodes.

The pipeline, built for throughput:

* ``--actors N`` processes (:mod:`kartentisch.rl.actors`, numpy only, started with
  ``spawn``) each step ``--num-envs`` games together with the batch stepper and score every
  learner decision's legal actions of all games in one call of the numpy network. Their
  samples (float16) come to the learner through shared memory, four ``--chunk`` slots per
  actor, announced by small messages on a bounded queue: when the learner falls behind, the
  actors wait rather than pile up memory.
* The learner (this process; PyTorch, ``--device cpu`` or ``cuda``, the same code) keeps a
  ring buffer of the latest ``--buffer`` samples and takes one Adam step on ``--batch``
  samples per ``--batch // 2`` new ones (each sample is used about twice). Every
  ``--refresh`` updates it publishes the weights to the actors through shared memory.
* ``--minutes`` is training time: evaluation is excluded from it (the clock stops while the
  learner evaluates), and every progress line says how the wall time was split
  (``train`` and ``eval``). Every ``--eval-minutes`` of training the network is exported to
  ``<out>/<game>.npz`` (numpy weights, :mod:`kartentisch.rl.dmc`), played against random and
  heuristic bots (the learner in each seat in turn, fixed deals), and the results go to
  ``<out>/curve.json`` and ``<out>/curve.png``.
* Resumable: ``<out>/checkpoint.pt`` keeps the weights, the optimizer, the counters, the
  curve and the random states; run the same command again and it goes on up to
  ``--minutes`` (or ``--max-updates``) in all. The replay buffer is not kept: a resumed run
  refills it first. Each start draws the actors' seeds afresh from ``--seed`` and the number
  of starts, so a resumed run does not replay the games of the first.
* ``--init PATH.npz`` starts a fresh run from numpy weights (e.g. imitation learning); the
  file's layer sizes replace ``--hidden``.
* Stops cleanly on SIGINT and SIGTERM (checkpoint and weights written, actors stopped);
  actors end by themselves when the trainer dies (no orphans).
* One plain-text progress line per ``--report-seconds`` on stdout (no terminal codes, fits a
  log file): elapsed time and its split, decisions per second, samples, updates, loss and the
  last evaluation.

``kartentisch-train --game krass-kariert --minutes 45 --out runs/kk`` (needs the ``train``
extra: PyTorch's CPU build).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import multiprocessing
import os
import queue
import signal
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

import numpy as np

from kartentisch.arena.stats import wilson_interval
from kartentisch.bots.registry import make_bot
from kartentisch.core.errors import KartentischError
from kartentisch.core.registry import descriptor, load_game
from kartentisch.core.rng import derive_seed
from kartentisch.rl.actors import (
    LEARNER,
    ActorConfig,
    Samples,
    SampleSlots,
    SharedWeights,
    actor_process,
    parse_mix,
)
from kartentisch.rl.dmc import QNetwork
from kartentisch.rl.encodings import encoding_for
from kartentisch.rl.learned import LearnedBot

__all__ = ["Clock", "Progress", "build_network", "export", "main", "parse_mix",
           "progress_line"]


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


def numpy_arrays(net: Any) -> dict[str, Any]:
    """The PyTorch network's weights as the numpy network's arrays (float32)."""
    def a(t: Any) -> Any:
        return t.detach().cpu().numpy().astype(np.float32)

    return {"w_obs": a(net.obs.weight.T), "w_act": a(net.act.weight.T),
            "b1": a(net.obs.bias), "w2": a(net.l2.weight.T), "b2": a(net.l2.bias),
            "w3": a(net.l3.weight.T), "b3": a(net.l3.bias)}


def load_numpy(torch: Any, net: Any, network: QNetwork) -> None:
    """Copy a numpy network's weights into the PyTorch one (``--init``)."""
    with torch.no_grad():
        for layer, weight, bias in ((net.obs, network.w_obs, network.b1),
                                    (net.l2, network.w2, network.b2),
                                    (net.l3, network.w3, network.b3)):
            layer.weight.copy_(torch.from_numpy(np.ascontiguousarray(weight.T)))
            layer.bias.copy_(torch.from_numpy(bias))
        net.act.weight.copy_(torch.from_numpy(np.ascontiguousarray(network.w_act.T)))


def export(net: Any, game: str, info: dict[str, Any]) -> QNetwork:
    """The numpy network of the PyTorch one."""
    return QNetwork(game=game, info=info, **numpy_arrays(net))


BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


@contextlib.contextmanager
def one_blas_thread() -> Iterator[None]:
    """Processes started meanwhile run numpy's matrix products on one thread (unless the
    environment says otherwise): an actor is one core's worth of work, and BLAS threads of
    several actors fighting over the same cores made the actors' scoring 20 times slower on
    a loaded machine (5 ms against 120 ms per step, measured)."""
    before = {name: os.environ.get(name) for name in BLAS_THREADS}
    for name in BLAS_THREADS:
        os.environ.setdefault(name, "1")
    try:
        yield
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)


class Clock:
    """Training time and evaluation time, apart: ``--minutes`` counts training time only.

    ``now`` is the time source (``time.perf_counter``; tests pass their own).
    """

    def __init__(self, train: float = 0.0, evaluation: float = 0.0,
                 now: Callable[[], float] = time.perf_counter) -> None:
        self._now = now
        self._train = train
        self._eval = evaluation
        self._since = now()
        self._evaluating = False

    def _settle(self) -> None:
        t = self._now()
        if self._evaluating:
            self._eval += t - self._since
        else:
            self._train += t - self._since
        self._since = t

    def evaluating(self, on: bool) -> None:
        """Start (``True``) or end (``False``) an evaluation: its time is not training."""
        self._settle()
        self._evaluating = on

    @property
    def train(self) -> float:
        """Seconds of training so far."""
        self._settle()
        return self._train

    @property
    def evaluation(self) -> float:
        """Seconds of evaluation so far."""
        self._settle()
        return self._eval


@dataclass
class Progress:
    """What a checkpoint keeps besides the weights, optimizer and random states."""

    seconds: float = 0.0
    """Training time (evaluation excluded)."""
    eval_seconds: float = 0.0
    games: int = 0
    decisions: int = 0
    """Actions the actors applied (all seats)."""
    samples: int = 0
    updates: int = 0
    starts: int = 0
    """How often the run was started (resumes included); seeds the actors."""
    curve: list[dict[str, Any]] = field(default_factory=list)


def _clock_text(seconds: float) -> str:
    s = int(seconds)
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"


def progress_line(game: str, p: Progress, rate: float, loss: float | None) -> str:
    """One report as plain text (no terminal codes), e.g. ``train krass-kariert  0:01:05
    (train 0:01:00 + eval 0:00:05)  decisions/s 52000  games 812  samples 90112 ...``."""
    last = p.curve[-1] if p.curve else None
    if last is None:
        evaluation = "none yet"
    else:
        parts = [f"lost {last[o]['loss_share']:.1%} vs {o}"
                 for o in ("random", "heuristic") if o in last]
        evaluation = f"at {_clock_text(last['seconds'])}: " + ", ".join(parts)
    loss_text = "-" if loss is None or math.isnan(loss) else f"{loss:.4f}"
    return (f"train {game}  {_clock_text(p.seconds + p.eval_seconds)}"
            f" (train {_clock_text(p.seconds)} + eval {_clock_text(p.eval_seconds)})"
            f"  decisions/s {rate:.0f}  games {p.games}  samples {p.samples}"
            f"  updates {p.updates}  loss {loss_text}  last eval {evaluation}")


def evaluate(game: Any, bot: LearnedBot, opponent: str, games: int, seed: int,
             stop: Callable[[], bool] = lambda: False) -> dict[str, float] | None:
    """The learned bot against ``opponent`` bots, in each seat in turn, on fixed deals
    (``None`` when ``stop`` says to stop first)."""
    n = game.players
    lost = won = 0
    total = 0.0
    for g in range(games):
        if stop():
            return None
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


class Learner:
    """The network, its optimizer and the replay buffer (PyTorch, on ``--device``)."""

    def __init__(self, args: argparse.Namespace, obs_size: int, feature_size: int) -> None:
        torch = self.torch = _torch()
        torch.set_num_threads(args.threads)
        self.args = args
        if str(args.device).startswith("cuda") and not torch.cuda.is_available():
            raise SystemExit(f"--device {args.device}: PyTorch sees no GPU here"
                             f" (torch {torch.__version__}); --device cpu trains on the CPU")
        self.device = torch.device(args.device)
        self.net = build_network(torch, obs_size, feature_size, args.hidden).to(self.device)
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=args.lr)
        self.rng = np.random.default_rng(args.seed)
        cap = args.buffer
        self.buf_obs = np.zeros((cap, obs_size), dtype=np.float16)
        self.buf_feat = np.zeros((cap, feature_size), dtype=np.float16)
        self.buf_target = np.zeros(cap, dtype=np.float32)
        self.buf_len = 0
        self.buf_next = 0
        self.new_samples = 0
        self.losses: list[float] = []

    def store(self, samples: Samples) -> None:
        k = len(samples.targets)
        cap = len(self.buf_target)
        idx = (self.buf_next + np.arange(k)) % cap
        self.buf_obs[idx] = samples.obs
        self.buf_feat[idx] = samples.features
        self.buf_target[idx] = samples.targets
        self.buf_next = int((self.buf_next + k) % cap)
        self.buf_len = min(cap, self.buf_len + k)
        self.new_samples += k

    def ready(self) -> bool:
        """Whether an update is due (enough new samples, a buffer worth sampling)."""
        batch: int = self.args.batch
        return (self.new_samples >= batch // 2
                and self.buf_len >= min(4 * batch, len(self.buf_target)))

    def update(self) -> None:
        """One Adam step on a batch drawn from the buffer."""
        torch = self.torch
        batch = self.args.batch
        self.new_samples -= batch // 2
        idx = self.rng.integers(self.buf_len, size=batch)
        dev = self.device
        o = torch.from_numpy(self.buf_obs[idx].astype(np.float32)).to(dev)
        f = torch.from_numpy(self.buf_feat[idx].astype(np.float32)).to(dev)
        y = torch.from_numpy(self.buf_target[idx]).to(dev)
        loss = torch.nn.functional.mse_loss(self.net(o, f), y)
        self.optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.net.parameters(), 10.0)
        self.optimizer.step()
        self.losses.append(float(loss.detach()))
        del self.losses[:-200]

    def mean_loss(self) -> float | None:
        return float(np.mean(self.losses)) if self.losses else None


class Trainer:
    """The training run (see the module docstring)."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.out = Path(args.out)
        self.out.mkdir(parents=True, exist_ok=True)
        self.game = load_game(args.game, args.players)
        self.name = self.game.spec.name
        self.encoding = encoding_for(self.game)
        self.checkpoint = self.out / "checkpoint.pt"
        resume = self.checkpoint.exists() and not args.fresh
        init = None
        if args.init is not None and not resume:
            init = QNetwork.load(args.init)
            LearnedBot(self.game, weights=args.init)  # checks game and encoding sizes
            args.hidden = [init.w_obs.shape[1], init.w2.shape[1]]
        self.learner = Learner(args, self.encoding.obs_size, self.encoding.feature_size)
        self.torch = self.learner.torch
        self.progress = Progress()
        if resume:
            self._load()
        elif init is not None:
            load_numpy(self.torch, self.learner.net, init)
        self.stop = False

    # ------------------------------------------------------------------ checkpoints
    def _load(self) -> None:
        state = self.torch.load(self.checkpoint, weights_only=False, map_location="cpu")
        if state["args"]["hidden"] != list(self.args.hidden):
            self.args.hidden = state["args"]["hidden"]
            self.learner = Learner(self.args, self.encoding.obs_size,
                                   self.encoding.feature_size)
        self.learner.net.load_state_dict(state["net"])
        self.learner.optimizer.load_state_dict(state["optimizer"])
        self.progress = Progress(**state["progress"])
        self.learner.rng.bit_generator.state = state["rng"]
        self.torch.set_rng_state(state["torch_rng"])
        print(f"resumed from {self.checkpoint}: {self.progress.games} games,"
              f" {self.progress.updates} updates,"
              f" {self.progress.seconds / 60:.1f} minutes of training", flush=True)

    def save(self) -> None:
        state = {"net": self.learner.net.state_dict(),
                 "optimizer": self.learner.optimizer.state_dict(),
                 "progress": asdict(self.progress),
                 "rng": self.learner.rng.bit_generator.state,
                 "torch_rng": self.torch.get_rng_state(),
                 "args": {k: v for k, v in vars(self.args).items()}}
        tmp = self.checkpoint.with_suffix(".tmp")
        self.torch.save(state, tmp)
        tmp.replace(self.checkpoint)

    def export(self) -> Path:
        p = self.progress
        info = {"algorithm": "deep Monte-Carlo", "players": self.game.players,
                "games": p.games, "samples": p.samples, "updates": p.updates,
                "minutes": round(p.seconds / 60, 1), "hidden": list(self.args.hidden),
                "target": self.args.target, "opponents": self.args.opponents,
                "actors": self.args.actors, "device": self.args.device}
        path = self.out / f"{self.name}.npz"
        tmp = self.out / f"{self.name}.tmp.npz"
        export(self.learner.net, self.name, info).save(tmp)
        tmp.replace(path)
        return path

    # ------------------------------------------------------------------ the run
    def _done(self) -> bool:
        args = self.args
        p = self.progress
        return (self.stop or p.seconds >= args.minutes * 60
                or (args.max_updates is not None and p.updates >= args.max_updates))

    def run(self) -> None:
        args = self.args
        p = self.progress
        p.starts += 1
        context = multiprocessing.get_context("spawn")
        weights = SharedWeights(context, {k: v.shape for k, v in
                                          numpy_arrays(self.learner.net).items()})
        weights.write(numpy_arrays(self.learner.net))
        messages: Any = context.Queue(maxsize=4 * args.actors)
        stop_event = context.Event()
        actors = []
        slots = []
        for index in range(args.actors):
            slots.append(SampleSlots(context, 4, args.chunk, self.encoding.obs_size,
                                     self.encoding.feature_size))
            config = ActorConfig(
                game=args.game, players=args.players, num_envs=args.num_envs,
                opponents=args.opponents, target=args.target, epsilon=args.epsilon,
                seed=derive_seed(args.seed, "actor", p.starts, index), chunk=args.chunk)
            process = context.Process(
                target=actor_process, name=f"kartentisch-actor-{index}", daemon=True,
                args=(index, config, weights, slots[index], messages, stop_event,
                      os.getpid()))
            with one_blas_thread():
                process.start()
            actors.append(process)
        (self.out / "actors.json").write_text(json.dumps([a.pid for a in actors]))

        def on_signal(signum: int, frame: FrameType | None) -> None:
            self.stop = True

        old = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
        clock = Clock(p.seconds, p.eval_seconds)
        last_eval = p.seconds
        last_report = time.perf_counter()
        rate_since, rate_decisions = last_report, p.decisions
        rate = 0.0
        published = p.updates
        try:
            while True:
                p.seconds, p.eval_seconds = clock.train, clock.evaluation
                if self._done():
                    break
                dead = [a for a in actors if a.exitcode is not None]
                if dead:
                    raise SystemExit(f"actor {dead[0].name} ended with exit code"
                                     f" {dead[0].exitcode}; its error is above")
                self._receive(messages, slots)
                while self.learner.ready() and not self._done():
                    self.learner.update()
                    p.updates += 1
                    if p.updates - published >= args.refresh:
                        weights.write(numpy_arrays(self.learner.net))
                        published = p.updates
                p.seconds = clock.train
                if p.seconds - last_eval >= args.eval_minutes * 60:
                    last_eval = p.seconds
                    self._evaluate_and_save(clock)
                now = time.perf_counter()
                if now - last_report >= args.report_seconds:
                    rate = (p.decisions - rate_decisions) / (now - rate_since)
                    rate_since, rate_decisions = now, p.decisions
                    last_report = now
                    print(progress_line(self.name, p, rate, self.learner.mean_loss()),
                          flush=True)
            if not self.stop and (not p.curve or p.curve[-1]["updates"] != p.updates):
                self._evaluate_and_save(clock)
        finally:
            self._stop_actors(actors, messages, stop_event)
            for s, handler in old.items():
                signal.signal(s, handler)
            p.seconds, p.eval_seconds = clock.train, clock.evaluation
            self.save()
            self.export()
            print(progress_line(self.name, p, rate, self.learner.mean_loss()), flush=True)

    def _receive(self, messages: Any, slots: list[SampleSlots]) -> None:
        """Store what the actors sent (waiting a little for the first chunk)."""
        p = self.progress
        timeout = 0.0 if self.learner.ready() else 0.1
        for _ in range(4 * self.args.actors):
            try:
                index, slot, count, games, decisions = (
                    messages.get(timeout=timeout) if timeout else messages.get_nowait())
            except queue.Empty:
                return
            timeout = 0.0
            self.learner.store(slots[index].read(slot, count))
            slots[index].free.put(slot)
            p.samples += count
            p.games += games
            p.decisions += decisions

    def _stop_actors(self, actors: list[Any], messages: Any, stop_event: Any) -> None:
        """Tell the actors to stop and wait for them (each looks after every step and
        every short wait); one that has not ended after 10 s is terminated."""
        stop_event.set()
        for a in actors:
            a.join(10.0)
            if a.is_alive():
                a.terminate()
                a.join(5.0)
        messages.close()
        messages.cancel_join_thread()

    def _evaluate_and_save(self, clock: Clock) -> None:
        clock.evaluating(True)
        try:
            path = self.export()
            bot = LearnedBot(self.game, weights=path)
            p = self.progress
            point: dict[str, Any] = {"seconds": p.seconds, "games": p.games,
                                     "samples": p.samples, "updates": p.updates,
                                     "loss": self.learner.mean_loss()}
            for opponent in ("random", "heuristic"):
                result = evaluate(self.game, bot, opponent, self.args.eval_games,
                                  self.args.seed + 7, stop=lambda: self.stop)
                if result is None:
                    return
                point[opponent] = result
            p.curve.append(point)
            (self.out / "curve.json").write_text(json.dumps(p.curve, indent=1))
            plot_curve(p.curve, self.out / "curve.png",
                       f"{self.game.spec.title}, {self.game.players} players:"
                       " DMC learning curve")
        finally:
            clock.evaluating(False)
            self.progress.seconds = clock.train
            self.progress.eval_seconds = clock.evaluation
        self.save()


def parser() -> argparse.ArgumentParser:
    """The command line of ``kartentisch-train``."""
    cli = argparse.ArgumentParser(
        prog="kartentisch-train", description="Train the learned bot (Deep Monte-Carlo).")
    cli.add_argument("--game", default="krass-kariert")
    cli.add_argument("--players", type=int, default=None)
    cli.add_argument("--minutes", type=float, default=45.0,
                     help="training time in all, resumed runs included; evaluation is not"
                          " counted (the progress line shows the split)")
    cli.add_argument("--max-updates", type=int, default=None,
                     help="stop after this many learner updates in all (besides --minutes)")
    cli.add_argument("--out", default=None, help="run directory (default runs/<game>)")
    cli.add_argument("--fresh", action="store_true", help="ignore an existing checkpoint")
    cli.add_argument("--init", default=None, metavar="PATH.npz",
                     help="start a fresh run from these numpy weights")
    cli.add_argument("--actors", type=int, default=max(1, (os.cpu_count() or 2) - 1),
                     help="actor processes (default: the cores but one)")
    cli.add_argument("--num-envs", type=int, default=64, help="games per actor")
    cli.add_argument("--chunk", type=int, default=2048,
                     help="samples an actor sends at once")
    cli.add_argument("--refresh", type=int, default=10,
                     help="updates between weights sent to the actors")
    cli.add_argument("--device", default="cpu", help="the learner's device: cpu or cuda")
    cli.add_argument("--epsilon", type=float, default=0.05)
    cli.add_argument("--lr", type=float, default=3e-4)
    cli.add_argument("--batch", type=int, default=1024)
    cli.add_argument("--buffer", type=int, default=65536)
    cli.add_argument("--hidden", type=int, nargs=2, default=[256, 128])
    cli.add_argument("--opponents", default="learner:0.6,random:0.2,heuristic:0.2")
    cli.add_argument("--target", choices=("game", "deal", "pack"), default=None,
                     help="the return each decision learns (default: the game's own,"
                          " from its descriptor)")
    cli.add_argument("--eval-minutes", type=float, default=5.0,
                     help="training minutes between evaluations (and at the end)")
    cli.add_argument("--eval-games", type=int, default=40)
    cli.add_argument("--report-seconds", type=float, default=10.0,
                     help="seconds between progress lines")
    cli.add_argument("--threads", type=int, default=1, help="the learner's PyTorch threads")
    cli.add_argument("--seed", type=int, default=0)
    return cli


def main(argv: Sequence[str] | None = None) -> int:
    """The ``kartentisch-train`` command."""
    args = parser().parse_args(argv)
    if args.out is None:
        args.out = f"runs/{args.game}"
    if args.actors < 1:
        raise SystemExit("--actors must be at least 1")
    described = descriptor(args.game)
    if args.target is None:
        args.target = described.train_target
    if args.target not in described.train_targets:
        raise SystemExit(f"--target {args.target} is not one of {args.game}'s: "
                         f"{', '.join(described.train_targets)}")
    game = load_game(args.game, args.players)
    for name, _ in parse_mix(args.opponents):
        if name != LEARNER:
            try:  # refused here, not in an actor after the start
                make_bot(name, game, 0)
            except KartentischError as exc:
                raise SystemExit(f"--opponents: {exc}") from None
    trainer = Trainer(args)
    trainer.run()
    print(f"weights: {trainer.out / (trainer.name + '.npz')}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
