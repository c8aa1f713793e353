"""The estimate of one decision: the review's ismcts bot on the seat's observation alone.

The bot searches as it would at a table (the game's tuning, the candidate moves its game
advises, the anchor on the heuristic's favourite), with one difference: the move the player
chose is always among the root moves, so the search estimates it too. After the search the
played move gets extra iterations through it alone until it has as many visits as the best
move (at most the budget's ``top_up``), so that both estimates rest on enough playouts.

Nothing here sees a state: the search samples worlds from the observation
(``game.sample_world``), as every bot does, so a review cannot depend on a hidden card.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from kartentisch.bots.ismcts import ISMCTSBot, Node
from kartentisch.bots.playout import search_candidates
from kartentisch.core.protocol import Game
from kartentisch.core.registry import descriptor_of

Skip = Literal["forced", "obvious"]
"""Why a decision is not searched: one legal move, or the game's single advised move (a step
its heuristic is trusted with, such as Krass Kariert's insertion of a drawn card) played."""


@dataclass(frozen=True, slots=True)
class MoveEstimate:
    """One root move's estimate: its mean return, standard error and visits."""

    action: int
    mean: float
    se: float
    visits: int


@dataclass(frozen=True, slots=True)
class Estimate:
    """The review of one decision before it is put in the game's terms."""

    played: MoveEstimate
    best: MoveEstimate
    candidates: int
    """How many moves the search compared."""
    iterations: int
    """Search iterations in all (sampled worlds), the top-up included."""


def chance_of(game: Game[Any, Any, Any], mean: float) -> float:
    """A mean return as a chance to win: the game descriptor's mapping, which the hint
    uses too, so both speak alike."""
    return descriptor_of(game).win_chance(game, mean)


def _estimate(action: int, node: Node) -> MoveEstimate:
    mean, variance = node.mean_and_variance()
    se = math.sqrt(variance / node.visits) if node.visits else math.inf
    return MoveEstimate(action, mean, se, node.visits)


def estimate_decision(game: Game[Any, Any, Any], observation: Any, legal: Sequence[int],
                      played: int, seed: int, params: dict[str, Any], top_up: int
                      ) -> Estimate | Skip:
    """Search the decision that ``observation``'s seat faced with the legal ids ``legal``,
    where it played ``played``; ``params`` are the bot's ``ismcts`` parameters."""
    if len(legal) < 2:
        return "forced"
    bot = ISMCTSBot(game, seed, **params)
    ids = list(legal)
    advised = search_candidates(bot.hooks, observation, ids)
    if advised is not None and len(advised) == 1 and advised[0] == played:
        return "obvious"
    roots = list(advised) if advised else ids
    if played not in roots:
        roots.append(played)
    favourite = None
    if bot.anchor is not None and bot.prior is not None:
        favourite = bot.prior.favourite(observation, roots)
    bot._root_first = favourite
    bot._root_ids = set(roots)
    root = bot.search(observation)
    iterations = bot.last_iterations
    children = root.children
    best = max(roots, key=lambda a: (a in children, children[a].visits if a in children else 0,
                                     children[a].total if a in children else 0.0))
    if (bot.anchor is not None and favourite is not None and favourite != best
            and favourite in children):
        chosen, kept = children[best], children[favourite]
        mb, vb = chosen.mean_and_variance()
        mf, vf = kept.mean_and_variance()
        if mb - mf <= bot.anchor * math.sqrt(vb / chosen.visits + vf / kept.visits):
            best = favourite
    # The top-up: iterations through the played move alone.
    bot._root_ids = {played}
    bot._root_first = played
    wanted = max(2, min(children[best].visits, top_up))
    while played not in children or children[played].visits < wanted:
        bot._iterate(root, game.sample_world(observation, bot.rng))
        iterations += 1
    bot._root_ids = None
    return Estimate(_estimate(played, children[played]), _estimate(best, children[best]),
                    len(roots), iterations)
