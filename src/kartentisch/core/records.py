"""Game records: game, player count, options, seed and actions replay to the identical state."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kartentisch.core.errors import InvalidRecordError, KartentischError
from kartentisch.core.protocol import JSON, Game, State
from kartentisch.core.registry import load_game

RECORD_FORMAT = "kartentisch-record/2"
"""Raised whenever the same seed would deal differently: format 1 records were dealt with the
earlier Krass Kariert shuffle and would replay other deals, so they are refused, not misread."""


@dataclass(slots=True)
class GameRecord:
    """A whole game as data. ``actions`` are in each game's text notation."""

    game: str
    players: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    actions: list[str] = field(default_factory=list)
    seats: list[str] = field(default_factory=list)
    """Who sat where (bot names or "human"); informational."""
    returns: list[float] | None = None
    """The final returns, when the game ended; checked on replay."""

    @classmethod
    def from_state(
        cls, name: str, state: State[Any, Any], seats: Sequence[str] = ()
    ) -> GameRecord:
        """The record of ``state`` so far."""
        game = state.game
        return cls(
            game=name,
            players=game.players,
            seed=state.seed,
            options=game.options_json(),
            actions=[game.format_action(a) for a in state.history],
            seats=list(seats),
            returns=list(state.returns()) if state.is_terminal() else None,
        )

    def to_json(self) -> JSON:
        """A JSON-ready dictionary."""
        return {
            "format": RECORD_FORMAT,
            "game": self.game,
            "players": self.players,
            "seed": self.seed,
            "options": self.options,
            "seats": self.seats,
            "actions": self.actions,
            "returns": self.returns,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameRecord:
        """Read a record dictionary; raises :class:`InvalidRecordError` naming the problem."""
        if not isinstance(data, Mapping):
            raise InvalidRecordError("a record must be a JSON object")
        if data.get("format", RECORD_FORMAT) != RECORD_FORMAT:
            raise InvalidRecordError(
                f"unknown record format {data.get('format')!r}; expected {RECORD_FORMAT!r}"
            )
        for key, kind in (("game", str), ("players", int), ("seed", int), ("actions", list)):
            if not isinstance(data.get(key), kind):
                raise InvalidRecordError(
                    f"record field {key!r} is missing or not a {kind.__name__}")
        actions = data["actions"]
        if not all(isinstance(a, str) for a in actions):
            raise InvalidRecordError("record field 'actions' must be a list of strings")
        return cls(
            game=data["game"],
            players=data["players"],
            seed=data["seed"],
            options=dict(data.get("options") or {}),
            actions=list(actions),
            seats=list(data.get("seats") or []),
            returns=data.get("returns"),
        )

    def new_game(self) -> Game[Any, Any, Any]:
        """The game the record was played with."""
        return load_game(self.game, self.players, self.options)

    def replay(self, upto: int | None = None) -> State[Any, Any]:
        """The state after the first ``upto`` actions (all when ``None``)."""
        game = self.new_game()
        state: State[Any, Any] = game.new_initial_state(self.seed)
        for index, text in enumerate(self.actions[:upto]):
            try:
                state.apply(game.parse_action(text, state))
            except KartentischError as exc:
                raise InvalidRecordError(
                    f"action {index + 1} ({text!r}) does not replay: {exc}") from None
        if upto is None and self.returns is not None and state.is_terminal() and (
                [round(r, 9) for r in state.returns()] != [round(r, 9) for r in self.returns]):
            raise InvalidRecordError("the record's returns differ from the replayed game's")
        return state

    def save(self, path: str | Path) -> None:
        """Write the record as indented JSON."""
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        """Read a record file (JSON, or the first line of a JSON Lines file)."""
        text = Path(path).read_text(encoding="utf-8")
        try:
            data = json.loads(text)
        except json.JSONDecodeError:
            try:
                data = json.loads(text.splitlines()[0])
            except (json.JSONDecodeError, IndexError) as exc:
                raise InvalidRecordError(f"{path} is not a JSON record: {exc}") from None
        return cls.from_json(data)
