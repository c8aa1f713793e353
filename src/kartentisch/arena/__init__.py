"""The arena: many seeded games between bots, with seat rotation, duplicate deals and ratings.

``run_arena`` is the library entry point; ``kartentisch.arena.cli.arena_command`` is the
typer command the CLI mounts as ``kartentisch arena``.
"""

from kartentisch.arena.runner import ArenaResult, GameOutcome, GameTask, play_game, run_arena
from kartentisch.arena.schedule import parse_lineup, schedule
from kartentisch.arena.stats import BotStats, wilson_interval
from kartentisch.core.rng import derive_seed

__all__ = [
    "ArenaResult",
    "BotStats",
    "GameOutcome",
    "GameTask",
    "derive_seed",
    "parse_lineup",
    "play_game",
    "run_arena",
    "schedule",
    "wilson_interval",
]
