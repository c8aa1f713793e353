"""The arena: many seeded games between bots, with seat rotation, duplicate deals and ratings.

``run_arena`` is the library entry point; ``kartentisch.cli.arena.arena_command`` is the
typer command the CLI mounts as ``kartentisch arena``.
"""

from kartentisch.arena.runner import (
    ArenaResult,
    GameTask,
    play_game,
    play_task,
    run_arena,
    run_tasks,
)
from kartentisch.arena.schedule import iter_schedule, parse_lineup, schedule
from kartentisch.arena.stats import BotStats, wilson_interval
from kartentisch.bots.match import GameOutcome, play_match
from kartentisch.core.rng import derive_seed

__all__ = [
    "ArenaResult",
    "BotStats",
    "GameOutcome",
    "GameTask",
    "derive_seed",
    "iter_schedule",
    "parse_lineup",
    "play_game",
    "play_match",
    "play_task",
    "run_arena",
    "run_tasks",
    "schedule",
    "wilson_interval",
]
