"""Single-observer information-set Monte Carlo tree search (SO-ISMCTS).

After Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search" (IEEE TCIAIG
4(2), 2012). One tree is grown over the searching seat's information set; every iteration

1. samples a world consistent with the observation (``game.sample_world``),
2. descends the tree choosing, among the children whose actions are legal in *that* world,
   the one with the best UCB1 score, where a child's exploration term counts how often it
   was *available* rather than how often its parent was visited,
3. expands one untried legal action,
4. plays out (see :mod:`kartentisch.bots.playout`: random or heuristic rollouts, with a
   game horizon and evaluation where the game provides them), and
5. backs the return vector up the path: each node adds the return of the seat that chose
   the action leading to it, so every seat maximises its own return (multi-player).

UCB1 needs values in [0, 1]. A game's nominal utility range is often far wider than what a
search actually sees (a Krass Kariert playout cut at the end of a deal moves the expected
return by a few hundredths), so mean values are rescaled by the smallest and largest
return observed in the current search (min-max normalisation, as in MuZero) instead.

Nodes are keyed by integer action ids. Where a node has many legal actions (Krass Kariert
insertions: up to 38 reserve placements), *progressive widening* limits the children a
node may have to ``widening * visits ** 0.5`` (at least one), so the search looks deeper
instead of trying every placement once. Untried actions are expanded best first by the
game's scoring heuristic when it has one (a prior), else in a random order.

With an iteration budget and a fixed seed the bot is deterministic; a time budget
(``seconds``) stops earlier and is not.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kartentisch.bots.playout import (
    GAME_DEFAULT,
    Default,
    Prior,
    Rollout,
    RolloutPolicy,
    apply_id,
    legal_ids,
    playout,
    search_candidates,
    search_config,
    search_hooks,
)


@dataclass(frozen=True, slots=True)
class ISMCTSConfig:
    """The ISMCTS parameters (see :class:`ISMCTSBot`); games override them in
    ``search_defaults["ismcts"]``."""

    iterations: int = 300
    rollout: Rollout = Rollout.RANDOM
    exploration: float = 0.7
    widening: float = 0.0
    max_playout: int | None = None
    max_steps: int | None = None
    prior: bool = True
    anchor: float | None = None
    depth: int | None = None

    def __post_init__(self) -> None:
        # Numbers may arrive as text-converted ints ("anchor=1"); keep the declared kinds.
        object.__setattr__(self, "iterations", int(self.iterations))
        object.__setattr__(self, "exploration", float(self.exploration))
        object.__setattr__(self, "widening", float(self.widening))
        object.__setattr__(self, "prior", bool(self.prior))
        if self.anchor is not None:
            object.__setattr__(self, "anchor", float(self.anchor))
        if not (math.isfinite(self.exploration) and self.exploration >= 0
                and math.isfinite(self.widening) and self.widening >= 0):
            raise ValueError("exploration and widening must be finite and at least 0")
        if self.anchor is not None and not math.isfinite(self.anchor):
            raise ValueError("anchor must be a finite number")


class Node:
    """One node of the information-set tree: the action that led here and its statistics."""

    __slots__ = ("avail", "children", "parent", "player", "squares", "total", "visits")

    def __init__(self, parent: Node | None, player: int | None):
        self.parent = parent
        self.player = player
        """The seat that chose the action leading to this node (``None`` at the root)."""
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        """Sum of ``player``'s returns over the visits."""
        self.squares = 0.0
        """Sum of their squares (for the spread of the mean)."""

    def mean_and_variance(self) -> tuple[float, float]:
        """The mean return and its sample variance (infinite below two visits)."""
        n = self.visits
        if n < 2:
            return (self.total / n if n else 0.0), math.inf
        mean = self.total / n
        return mean, max(0.0, (self.squares - n * mean * mean) / (n - 1))


class ISMCTSBot:
    """SO-ISMCTS over sampled worlds; sees only its observation and the legal actions.

    Every parameter left out takes the game's default (``game.search_defaults["ismcts"]``,
    else :class:`ISMCTSConfig`'s): parameters where ``None`` means "no limit" or "none"
    (``max_steps``, ``max_playout``, ``anchor``, ``depth``) default to
    :data:`~kartentisch.bots.playout.GAME_DEFAULT`, the others to ``None``. A whole
    ``config`` replaces the game's defaults and the keyword parameters.

    Args:
        game: the Game instance (for ``sample_world`` and action ids).
        seed: seeds the bot's own generator (worlds, tie-breaks, rollouts).
        iterations: iterations per move (the default is per game: ``game.search_defaults``).
        max_steps: optional cap on the rollout actions per move, a deterministic stand-in for
            a time limit (the search stops after the iteration that reaches it).
        seconds: optional time budget per move; the search stops at whichever comes first.
        exploration: the UCB1 constant on returns rescaled to [0, 1] (see above).
        rollout: ``"random"`` or ``"heuristic"`` (the game's heuristic bot on the world).
        widening: progressive widening factor; 0 turns widening off.
        max_playout: cap on playout length when the game has an evaluation.
        use_prior: expand actions in the order of the game's scoring heuristic (when it has
            one, see :class:`~kartentisch.bots.playout.Prior`) instead of at random.
        anchor: with a prior, keep the prior's favourite root action unless the most
            visited one has a mean return higher by more than ``anchor`` standard errors.
            ``None`` always plays the most visited action.
        depth: optional limit on the tree's depth; below it, playouts take over (with
            ``1`` the search is a bandit over the root actions on sampled worlds).
        config: every parameter at once (``seconds`` aside).

    A game's ``search_candidates`` hook (see :mod:`kartentisch.bots.playout`) limits the
    root actions searched; a single candidate is played without search.
    """

    name = "ismcts"

    def __init__(self, game: Any, seed: int = 0, *, iterations: int | None = None,
                 seconds: float | None = None,
                 max_steps: int | Default | None = GAME_DEFAULT,
                 exploration: float | None = None,
                 rollout: Rollout | str | None = None, widening: float | None = None,
                 max_playout: int | Default | None = GAME_DEFAULT,
                 use_prior: bool | None = None,
                 anchor: float | Default | None = GAME_DEFAULT,
                 depth: int | Default | None = GAME_DEFAULT,
                 config: ISMCTSConfig | None = None):
        given: dict[str, object] = {
            "iterations": iterations, "exploration": exploration, "rollout": rollout,
            "widening": widening, "prior": use_prior}
        overrides = {k: v for k, v in given.items() if v is not None}
        overrides.update(max_steps=max_steps, max_playout=max_playout, anchor=anchor,
                         depth=depth)
        if config is None:
            config = search_config(ISMCTSConfig, game, "ismcts", overrides)
        self.config = config
        """The parameters in force (the game's defaults with the arguments applied)."""
        self.game = game
        self.rng = random.Random(seed)
        self.iterations = config.iterations
        self.seconds = None if seconds is None else float(seconds)
        self.max_steps = config.max_steps
        if self.iterations < 1 and self.seconds is None:
            raise ValueError("ismcts needs a positive iteration count or a time budget")
        self.exploration = config.exploration
        self.widening = config.widening
        self.max_playout = config.max_playout
        self.hooks = search_hooks(game)
        self.policy = RolloutPolicy(game, config.rollout, self.rng, hooks=self.hooks)
        prior = Prior(game, seed) if config.prior else None
        self.prior = prior if prior is not None and prior.available else None
        self.anchor = config.anchor
        self.depth = config.depth
        self._root_first: int | None = None
        self._root_ids: set[int] | None = None
        self._lo = math.inf
        self._hi = -math.inf
        self.last_iterations = 0
        """How many iterations the last move ran (for benchmarks)."""

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        """Search from ``observation`` and return the most visited legal action."""
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        if len(legal_actions) == 1:
            self.last_iterations = 0
            return legal_actions[0]
        game = self.game
        by_id = {game.action_to_id(a): a for a in legal_actions}
        advised = search_candidates(self.hooks, observation, list(by_id))
        if advised is not None and len(advised) == 1:
            self.last_iterations = 0
            return by_id[advised[0]]
        if advised is not None:
            by_id = {a: by_id[a] for a in advised}
        favourite = None
        if self.anchor is not None and self.prior is not None:
            favourite = self.prior.favourite(observation, list(by_id))
        self._root_first = favourite
        self._root_ids = None if advised is None else set(advised)
        try:
            root = self.search(observation)
        finally:
            self._root_ids = None
        children = root.children
        best = max(by_id, key=lambda a: (a in children,
                                         children[a].visits if a in children else 0,
                                         children[a].total if a in children else 0.0))
        anchor: float | None = self.anchor
        if (anchor is not None and favourite is not None and favourite != best
                and favourite in root.children):
            chosen, kept = root.children[best], root.children[favourite]
            mb, vb = chosen.mean_and_variance()
            mf, vf = kept.mean_and_variance()
            se = math.sqrt(vb / chosen.visits + vf / kept.visits)
            if mb - mf <= anchor * se:
                best = favourite
        return by_id[best]

    def search(self, observation: Any) -> Node:
        """Grow a tree from ``observation`` within the budget and return its root."""
        game = self.game
        rng = self.rng
        root = Node(None, None)
        self._lo = math.inf
        self._hi = -math.inf
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        limit = self.iterations if self.iterations > 0 else math.inf
        done = 0
        policy = self.policy
        step_limit = math.inf if self.max_steps is None else policy.steps + self.max_steps
        while done < limit:
            if done and (policy.steps >= step_limit
                         or (deadline is not None and time.perf_counter() >= deadline)):
                break
            world = game.sample_world(observation, rng)
            self._iterate(root, world)
            done += 1
        self.last_iterations = done
        return root

    def _iterate(self, root: Node, world: Any) -> None:
        """One iteration on ``world``: select, expand, play out, back up."""
        game = self.game
        rng = self.rng
        c = self.exploration
        widening = self.widening
        node = root
        path = [root]
        depth = self.depth
        while not world.is_terminal():
            if depth is not None and len(path) > depth:
                break
            ids = legal_ids(game, world)
            if node is root and self._root_ids is not None:
                ids = [a for a in ids if a in self._root_ids]
            children = node.children
            untried = [a for a in ids if a not in children]
            allowed = True
            if widening > 0 and untried and len(children) and len(ids) > 1:
                allowed = len(children) < max(1.0, widening * math.sqrt(node.visits))
                if allowed is False and not any(a in children for a in ids):
                    allowed = True
            if untried and allowed:
                player = world.current_player
                if node is root and self._root_first in untried:
                    aid = self._root_first
                elif self.prior is not None and self.prior.can_order:
                    aid = self.prior.order(world.observation(player), untried)[0]
                else:
                    aid = untried[rng.randrange(len(untried))]
                child = Node(node, player)
                child.avail = 1
                children[aid] = child
                apply_id(game, world, aid)
                path.append(child)
                break
            lo, hi = self._lo, self._hi
            scale = 1.0 / (hi - lo) if hi > lo else 0.0
            log = math.log
            sqrt = math.sqrt
            best_score = -math.inf
            best_id: int | None = None
            chosen: Node | None = None
            for aid in ids:
                cand = children.get(aid)
                if cand is None:
                    continue
                cand.avail += 1
                if cand.visits == 0:
                    score = math.inf
                else:
                    score = (cand.total / cand.visits - lo) * scale + c * sqrt(
                        log(cand.avail) / cand.visits)
                if score > best_score:
                    best_score, best_id, chosen = score, aid, cand
            assert chosen is not None and best_id is not None
            apply_id(game, world, best_id)
            node = chosen
            path.append(node)
        returns = playout(game, world, self.policy, self.hooks, self.max_playout)
        for value in returns:
            if value < self._lo:
                self._lo = value
            if value > self._hi:
                self._hi = value
        for n in path:
            n.visits += 1
            if n.player is not None:
                value = returns[n.player]
                n.total += value
                n.squares += value * value


def make_ismcts(game: Any, seed: int = 0, **params: Any) -> ISMCTSBot:
    """Registry factory: ``make_bot("ismcts", game, seed)``; ``params`` override defaults."""
    return ISMCTSBot(game, seed, **params)
