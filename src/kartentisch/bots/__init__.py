"""Bots: players that see an observation and the legal actions, never the state."""

from kartentisch.bots.base import Bot, RandomBot
from kartentisch.bots.registry import list_bots, make_bot

__all__ = ["Bot", "RandomBot", "list_bots", "make_bot"]
