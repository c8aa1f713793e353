"""Rewards by the game's own parts: per deal, per pack, or shaped; the trainer's targets too.

A game ends with its returns (the ``game`` scheme, every environment's default). Some games
are played in parts that each have a result of their own, and a learner gets a denser signal
from those. The game's descriptor names the parts it has (``train_targets``); this module is
the one definition of each, shared by the environments' ``reward=`` option and the trainer's
``--target``:

``deal`` (Krass Kariert: ``state.deal`` counts the Durchgänge, ``state.chips`` the chips)
    When a deal ends and the game goes on, every seat that gave up a chip gets -1 and the
    others share those losses, the way the game's returns share a game's (zero-sum). A deal
    that ends the game has no deal result of its own: its losers are the game's losers.

``pack`` (Casino: ``state.pack_results`` lists the scored packs, ``game.side_of`` pairs
    partners)
    When a pack is scored (the last one too), each seat gets the points its side made in it
    less the mean of the other sides' points, divided by 11 (the points a pack holds besides
    sweeps).

``shaped`` (every game whose search hooks have ``evaluate``)
    Potential-based shaping (Ng, Harada and Russell, 1999). The potential of a seat is the
    game's own estimate of its return, the descriptor's search hook ``evaluate`` (what the
    search bots use to score a playout cut short): 0 before the game starts, the game's
    return once it is over. Each reward is the change of the potential since the seat's
    previous reward, so the rewards of a game add up exactly to the game's return, and a
    policy that is optimal for them is optimal for the game's return too. The estimate is
    computed from the whole state (as a return is): it is a training signal and never part
    of an observation.

Environment rewards (:class:`Rewarder`): ``game`` gives the return at the end and nothing
before. ``deal`` and ``pack`` give each part's result when it ends and the game's return at
the end on top, so an episode's rewards add up to the game's return plus the results of the
parts (for ``deal``: of the deals that did not end the game; for ``pack``: of every pack).
``shaped`` adds up to the game's return exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from kartentisch.core.errors import KartentischError
from kartentisch.core.registry import descriptor

SCHEMES: Final = ("game", "deal", "pack", "shaped")
"""Every reward scheme; a game offers ``game``, its descriptor's ``train_targets`` and
``shaped`` when its search hooks have ``evaluate``."""

PACK_POINTS: Final = 11.0
"""The points a Casino pack holds besides sweeps: the scale of a ``pack`` result."""


def deal_result(chips_before: Sequence[int], chips_after: Sequence[int]) -> list[float] | None:
    """Each seat's result of a deal that took chips from ``chips_before`` to ``chips_after``:
    -1 for each seat that gave up a chip, the others sharing those losses equally; None when
    no seat gave up a chip, or every seat did (nothing to share)."""
    n = len(chips_after)
    lost = [s for s in range(n) if chips_after[s] < chips_before[s]]
    k = len(lost)
    if k == 0 or k == n:
        return None
    win = k / (n - k)
    return [-1.0 if s in lost else win for s in range(n)]


def pack_result(game: Any, state: Any) -> list[float]:
    """Each seat's result of the pack ``state`` scored last: its side's points in the pack
    less the mean of the other sides', divided by :data:`PACK_POINTS`."""
    points = state.pack_results[-1]["total"]
    sides = len(points)
    out = []
    for seat in range(game.players):
        mine = points[game.side_of(seat)]
        others = (sum(points) - mine) / (sides - 1)
        out.append((mine - others) / PACK_POINTS)
    return out


def schemes(game_name: str) -> tuple[str, ...]:
    """The reward schemes ``game_name`` offers, in :data:`SCHEMES` order."""
    described = descriptor(game_name)
    offered = {"game", *described.train_targets}
    if _evaluate_of(game_name) is not None:
        offered.add("shaped")
    return tuple(s for s in SCHEMES if s in offered)


def _evaluate_of(game_name: str, game: Any = None) -> Any:
    """The descriptor's ``evaluate`` hook of ``game`` (loaded when not given), or None."""
    from kartentisch.core.registry import load_game

    described = descriptor(game_name)
    hooks = described.hooks(game if game is not None else load_game(game_name))
    return hooks.evaluate


def check_scheme(game_name: str, scheme: str) -> str:
    """``scheme`` when ``game_name`` offers it.

    Raises:
        KartentischError: an unknown scheme, or one the game does not offer; the message
            lists the game's schemes.
    """
    offered = schemes(game_name)
    if scheme not in offered:
        raise KartentischError(
            f"reward {scheme!r} is not offered by {game_name}; it offers: {', '.join(offered)}")
    return scheme


class Rewarder:
    """The rewards of one game under one scheme (see the module docstring), seat by seat.

    Call :meth:`start` with each new game, then :meth:`after_action` with the state after
    each game action (a completed one: tokens that only choose part of an action change
    nothing). With :attr:`every_action` false (``shaped``) it may be called at fewer points,
    e.g. only where one seat decides: the potential's changes add up the same.
    """

    def __init__(self, game: Any, scheme: str = "game") -> None:
        self.game = game
        self.scheme = check_scheme(game.spec.name, scheme)
        self.players: int = game.players
        self.every_action = self.scheme in ("deal", "pack")
        """Whether :meth:`after_action` must see every game action (to see every part end)."""
        self._evaluate = _evaluate_of(game.spec.name, game) if scheme == "shaped" else None
        self._mark: Any = None
        self._potential = [0.0] * self.players

    def start(self, state: Any) -> None:
        """A new game begins with ``state``."""
        if self.scheme == "deal":
            self._mark = (state.deal, list(state.chips))
        elif self.scheme == "pack":
            self._mark = len(state.pack_results)
        self._potential = [0.0] * self.players

    def after_action(self, state: Any) -> list[float] | None:
        """The rewards of every seat since the last call, ``state`` being the game after
        the action (over or not); None when they are all zero (the common case)."""
        scheme = self.scheme
        over = bool(state.is_terminal())
        if scheme == "shaped":
            assert self._evaluate is not None
            now = ([float(r) for r in state.returns()] if over
                   else [float(v) for v in self._evaluate(state)])
            out = [a - b for a, b in zip(now, self._potential, strict=True)]
            self._potential = now
            return out
        rewards: list[float] | None = None
        if scheme == "deal" and not over and state.deal != self._mark[0]:
            rewards = deal_result(self._mark[1], state.chips)
            self._mark = (state.deal, list(state.chips))
        elif scheme == "pack" and len(state.pack_results) > self._mark:
            rewards = pack_result(self.game, state)
            self._mark = len(state.pack_results)
        if over:
            returns = [float(r) for r in state.returns()]
            rewards = returns if rewards is None else [
                a + b for a, b in zip(rewards, returns, strict=True)]
        return rewards
