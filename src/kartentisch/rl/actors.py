"""The trainer's actors: many games stepped together, scored by the numpy network in one call.

An :class:`Actor` keeps ``num_envs`` games in a :class:`~kartentisch.rl.batch.BatchStepper`
(compiled with the rules when ``make compiled`` has built the core). Each seat of each game is
the learner (epsilon-greedy over the network's values) or an opponent bot from the registry
(``--opponents``). Per step, the observation vectors of all rows where the learner decides
are written at once (:meth:`~kartentisch.rl.encodings.base.Encoding.write_rows`), every legal
action of those rows is described, and the network scores all of them in one call
(:meth:`~kartentisch.rl.dmc.QNetwork.q_rows`). Forced moves (one legal action) are played
without scoring and not kept: they teach the network nothing.

Each learner decision is kept with the return its seat later gets (``target``): ``game``, the
game's return; ``deal``, the outcome of its deal in a game of several deals (-1 for each seat
that lost a chip, the others sharing those losses as the returns do); ``pack``, the points its
side made in its pack less the other sides' mean, divided by 11 (the points a pack holds
besides sweeps). The deal and pack results come from :mod:`kartentisch.rl.rewards`, the one
definition the environments' ``reward=`` option shares.

The actor is numpy only (no PyTorch): it runs in a process of its own (:func:`actor_process`)
that reads fresh weights from shared memory (:class:`SharedWeights`) and hands its samples to
the learner through shared memory too (:class:`SampleSlots`), and it can be driven
in-process (tests, benchmarks).
"""

from __future__ import annotations

import os
import queue
import signal
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import FrameType
from typing import Any

import numpy as np
import numpy.typing as npt

from kartentisch.bots.match import needs_observation
from kartentisch.bots.registry import make_bot
from kartentisch.core.registry import load_game
from kartentisch.rl.batch import BatchStepper
from kartentisch.rl.dmc import ARRAYS, QNetwork
from kartentisch.rl.encodings import encoding_for
from kartentisch.rl.rewards import deal_result, pack_result

LEARNER = "learner"


def parse_mix(text: str) -> list[tuple[str, float]]:
    """``learner:0.6,random:0.2,heuristic:0.2`` as (name, weight) pairs."""
    out = []
    for part in text.split(","):
        name, _, weight = part.strip().partition(":")
        out.append((name.strip(), float(weight or 1.0)))
    if not any(name == LEARNER for name, _ in out):
        raise SystemExit("--opponents must include learner")
    return out


@dataclass(frozen=True)
class ActorConfig:
    """What an actor needs to play: plain values, so that it pickles for a spawned process."""

    game: str
    players: int | None
    num_envs: int
    opponents: str
    target: str
    epsilon: float
    seed: int
    chunk: int = 2048
    """Samples sent to the learner at once."""


@dataclass
class Samples:
    """Learner decisions with their targets, and what the actor did to get them."""

    obs: npt.NDArray[np.float16]
    features: npt.NDArray[np.float16]
    targets: npt.NDArray[np.float32]
    games: int
    decisions: int
    """Actions the actor applied (all seats, forced moves included)."""


class Actor:
    """``num_envs`` games played together (see the module docstring)."""

    def __init__(self, config: ActorConfig, network: QNetwork) -> None:
        self.config = config
        self.game = load_game(config.game, config.players)
        self.encoding = encoding_for(self.game)
        self.network = network
        self.rng = np.random.default_rng(config.seed)
        mix = parse_mix(config.opponents)
        self._names = [name for name, _ in mix]
        weights = np.array([w for _, w in mix], dtype=np.float64)
        self._weights = weights / weights.sum()
        self.stepper = BatchStepper(self.game, config.num_envs,
                                    seed=int(self.rng.integers(2**53)), copy=False)
        n = self.game.players
        rows = range(config.num_envs)
        self._ctrl = [self._controllers() for _ in rows]
        self._bots: list[dict[int, Any]] = [{} for _ in rows]
        self._pending_obs: list[list[list[Any]]] = [[[] for _ in range(n)] for _ in rows]
        self._pending_feat: list[list[list[Any]]] = [[[] for _ in range(n)] for _ in rows]
        tables = self.stepper.tables
        self._deal_of = [0 if config.target == "pack" else getattr(t.state, "deal", 0)
                         for t in tables]
        self._chips_of = [list(getattr(t.state, "chips", [])) for t in tables]
        self._out_obs: list[Any] = []
        self._out_feat: list[Any] = []
        self._out_target: list[Any] = []
        self.kept = 0
        """Samples waiting in :meth:`take`."""
        self.games = 0
        self.decisions = 0
        self._taken_games = 0
        self._taken_decisions = 0

    def _controllers(self) -> list[str]:
        n = self.game.players
        while True:
            seats = [self._names[int(i)]
                     for i in self.rng.choice(len(self._names), size=n, p=self._weights)]
            if LEARNER in seats:
                return seats

    def step(self) -> None:
        """One action in every game: bots choose theirs, the learner's are scored at once."""
        stepper = self.stepper
        enc = self.encoding
        game = self.game
        tables = stepper.tables
        chosen = [0] * stepper.num_envs
        learner_rows: list[int] = []
        learner_legal: list[Sequence[int]] = []
        for i, table in enumerate(tables):
            seat = table.current_player
            legal = stepper.legal_ids(i)
            if len(legal) == 1:
                chosen[i] = legal[0]
                continue
            controller = self._ctrl[i][seat]
            if controller == LEARNER:
                learner_rows.append(i)
                learner_legal.append(legal)
                continue
            bot = self._bots[i].get(seat)
            if bot is None:
                bot = self._bots[i][seat] = make_bot(controller, game,
                                                     int(self.rng.integers(2**53)))
            if not needs_observation(bot):  # the random bot: ids in, an id out (checked
                chosen[i] = bot.act(None, legal)  # by step_actions), no observation built
                continue
            state = table.state
            chosen[i] = game.checked_action_id(
                bot.act(state.observation(seat), state.legal_actions()))
        if learner_rows:
            obs = np.zeros((len(learner_rows), enc.obs_size), dtype=np.float32)
            enc.write_rows([tables[i].state for i in learner_rows],
                           [tables[i].current_player for i in learner_rows], obs)
            feats = [enc.features(tables[i].observation_to_act(), legal)
                     for i, legal in zip(learner_rows, learner_legal, strict=True)]
            counts = [len(legal) for legal in learner_legal]
            row_of = np.repeat(np.arange(len(learner_rows)), counts)
            q = self.network.q_rows(obs, np.concatenate(feats), row_of)
            start = 0
            eps = self.config.epsilon
            explore = self.rng.random(len(learner_rows)) < eps
            for j, i in enumerate(learner_rows):
                k = counts[j]
                pick = (int(self.rng.integers(k)) if explore[j]
                        else int(np.argmax(q[start:start + k])))
                chosen[i] = learner_legal[j][pick]
                seat = tables[i].current_player
                self._pending_obs[i][seat].append(obs[j])
                self._pending_feat[i][seat].append(feats[j][pick])
                start += k
        self._apply(chosen)

    def _apply(self, chosen: list[int]) -> None:
        tables = self.stepper.tables
        pack = self.config.target == "pack"
        before = [t.state for t in tables] if pack else []
        rewards, dones = self.stepper.step_actions(chosen)
        self.decisions += len(chosen)
        deal_target = self.config.target == "deal"
        for i, table in enumerate(tables):
            if pack and len(before[i].pack_results) > self._deal_of[i]:
                self._deal_of[i] = len(before[i].pack_results)
                self._flush(i, pack_result(self.game, before[i]))
            if dones[i]:
                self._flush(i, [float(r) for r in rewards[i]])
                self.games += 1
                self._ctrl[i] = self._controllers()
                self._bots[i] = {}
                self._deal_of[i] = 0 if pack else getattr(table.state, "deal", 0)
                self._chips_of[i] = list(getattr(table.state, "chips", []))
            elif deal_target and table.state.deal != self._deal_of[i]:
                chips = table.state.chips
                targets = deal_result(self._chips_of[i], chips)
                if targets is not None:
                    self._flush(i, targets)
                self._deal_of[i] = table.state.deal
                self._chips_of[i] = list(chips)

    def _flush(self, row: int, targets: list[float]) -> None:
        pending_obs = self._pending_obs[row]
        pending_feat = self._pending_feat[row]
        for seat, target in enumerate(targets):
            if pending_obs[seat]:
                k = len(pending_obs[seat])
                self._out_obs.append(np.stack(pending_obs[seat]).astype(np.float16))
                self._out_feat.append(np.stack(pending_feat[seat]).astype(np.float16))
                self._out_target.append(np.full(k, target, dtype=np.float32))
                self.kept += k
                pending_obs[seat].clear()
                pending_feat[seat].clear()

    def take(self) -> Samples:
        """The samples kept since the last call, and the games and actions since then."""
        enc = self.encoding
        if self._out_obs:
            samples = Samples(np.concatenate(self._out_obs), np.concatenate(self._out_feat),
                              np.concatenate(self._out_target), 0, 0)
        else:
            samples = Samples(np.zeros((0, enc.obs_size), dtype=np.float16),
                              np.zeros((0, enc.feature_size), dtype=np.float16),
                              np.zeros(0, dtype=np.float32), 0, 0)
        samples.games = self.games - self._taken_games
        samples.decisions = self.decisions - self._taken_decisions
        self._taken_games, self._taken_decisions = self.games, self.decisions
        self._out_obs.clear()
        self._out_feat.clear()
        self._out_target.clear()
        self.kept = 0
        return samples


class SharedWeights:
    """The network's weights in shared memory, written by the learner and read by actors.

    One float32 block holds every array of :data:`~kartentisch.rl.dmc.ARRAYS` one after the
    other; a version counter says when the learner wrote new ones, and a lock keeps an actor
    from reading half-written weights. Works with spawned and forked processes alike.
    """

    def __init__(self, context: Any, shapes: dict[str, tuple[int, ...]]) -> None:
        self.shapes = shapes
        self.size = sum(int(np.prod(shape)) for shape in shapes.values())
        self.block = context.RawArray("f", self.size)
        self.version = context.RawValue("q", 0)
        self.lock = context.Lock()

    def write(self, arrays: dict[str, npt.NDArray[np.float32]]) -> None:
        """Publish new weights (the learner)."""
        flat = np.concatenate([np.asarray(arrays[name], dtype=np.float32).reshape(-1)
                               for name in ARRAYS])
        with self.lock:
            np.frombuffer(self.block, dtype=np.float32)[:] = flat
            self.version.value += 1

    def read(self, game: str) -> tuple[int, QNetwork] | None:
        """The newest weights as a numpy network, and their version (an actor); ``None``
        when the lock is not free within half a second (a writer killed while holding it
        must not hang the actor: it would never see that its parent is gone)."""
        if not self.lock.acquire(timeout=0.5):
            return None
        try:
            flat = np.frombuffer(self.block, dtype=np.float32).copy()
            version = int(self.version.value)
        finally:
            self.lock.release()
        arrays: dict[str, Any] = {}
        start = 0
        for name in ARRAYS:
            shape = self.shapes[name]
            size = int(np.prod(shape))
            arrays[name] = flat[start:start + size].reshape(shape)
            start += size
        return version, QNetwork(game=game, info={}, **arrays)


class SampleSlots:
    """Shared-memory slots through which one actor hands its samples to the learner.

    The samples themselves never go through a pipe: the actor writes a chunk into a free
    slot and sends only a few numbers (actor, slot, count, games, actions) through the shared
    queue, a message small enough to be written whole by one system call. A big pickled
    message could be cut in the middle when its writer is killed, and the learner would then
    wait forever for the rest (which the first version did, in a test that kills an actor).
    The learner hands a slot back (``free``) once it has copied the chunk.
    """

    def __init__(self, context: Any, slots: int, chunk: int, obs_size: int,
                 feature_size: int) -> None:
        self.slots, self.chunk = slots, chunk
        self.obs_size, self.feature_size = obs_size, feature_size
        self._obs = context.RawArray("h", slots * chunk * obs_size)  # float16 bits
        self._feat = context.RawArray("h", slots * chunk * feature_size)
        self._target = context.RawArray("f", slots * chunk)
        self.free: Any = context.Queue()
        for slot in range(slots):
            self.free.put(slot)

    def arrays(self, slot: int) -> tuple[npt.NDArray[np.float16], npt.NDArray[np.float16],
                                         npt.NDArray[np.float32]]:
        """Slot ``slot``'s observation, feature and target arrays (views of shared memory)."""
        c = self.chunk
        obs = np.frombuffer(self._obs, dtype=np.float16).reshape(self.slots, c, self.obs_size)
        feat = np.frombuffer(self._feat, dtype=np.float16).reshape(
            self.slots, c, self.feature_size)
        target = np.frombuffer(self._target, dtype=np.float32).reshape(self.slots, c)
        return obs[slot], feat[slot], target[slot]

    def write(self, slot: int, samples: Samples, start: int) -> int:
        """Samples ``start`` onwards (at most a chunk) into ``slot``; returns how many."""
        count = min(self.chunk, len(samples.targets) - start)
        obs, feat, target = self.arrays(slot)
        obs[:count] = samples.obs[start:start + count]
        feat[:count] = samples.features[start:start + count]
        target[:count] = samples.targets[start:start + count]
        return count

    def read(self, slot: int, count: int) -> Samples:
        """A copy of the first ``count`` samples of ``slot`` (the learner)."""
        obs, feat, target = self.arrays(slot)
        return Samples(obs[:count].copy(), feat[:count].copy(), target[:count].copy(), 0, 0)


def actor_process(index: int, config: ActorConfig, weights: SharedWeights,
                  slots: SampleSlots, messages: Any, stop: Any, parent_pid: int) -> None:
    """An actor's process: play, send samples, take new weights, until told to stop.

    It stops when ``stop`` is set, on SIGTERM, or as soon as its parent is gone (then
    ``os.getppid()`` changes: the trainer was killed, so no orphan keeps playing). SIGINT
    is left to the parent, which stops the actors in order (a Ctrl-C reaches the whole
    process group). Every wait (a free slot, room in the queue, the weights' lock) is short
    and followed by these checks.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    halt = {"now": False}

    def on_term(signum: int, frame: FrameType | None) -> None:
        halt["now"] = True

    signal.signal(signal.SIGTERM, on_term)
    messages.cancel_join_thread()  # never wait at exit for messages nobody will read

    def running() -> bool:
        return not (halt["now"] or stop.is_set() or os.getppid() != parent_pid)

    first = None
    while first is None:
        if not running():
            return
        first = weights.read(config.game)
    version, network = first
    actor = Actor(config, network)
    while running():
        actor.step()
        if weights.version.value != version:
            fresh = weights.read(config.game)
            if fresh is not None:
                version, actor.network = fresh
        if actor.kept >= config.chunk:
            _send(index, actor.take(), slots, messages, running)


def _send(index: int, samples: Samples, slots: SampleSlots, messages: Any,
          running: Callable[[], bool]) -> None:
    """Hand ``samples`` over chunk by chunk (the counts go with the first chunk)."""
    start = 0
    games, decisions = samples.games, samples.decisions
    while start < len(samples.targets) and running():
        try:
            slot = slots.free.get(timeout=0.2)
        except queue.Empty:
            continue
        count = slots.write(slot, samples, start)
        start += count
        while running():
            try:
                messages.put((index, slot, count, games, decisions), timeout=0.2)
                break
            except queue.Full:
                continue
        games = decisions = 0
