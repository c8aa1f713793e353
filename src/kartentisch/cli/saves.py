"""Where games are kept when the player names no file: the user's data directory.

Every ``play`` without ``--save`` writes its record to ``<data dir>/games/`` (see
:func:`games_directory`), so that no game is ever lost; ``kartentisch resume`` without a
file lists the unfinished ones there (:func:`unfinished_games`). The data directory is
platformdirs' user data directory for ``kartentisch``, or the folder named by the
environment variable :data:`DATA_DIR_VARIABLE` (tests and portable installs).
"""

from __future__ import annotations

import datetime
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from kartentisch.core.errors import KartentischError
from kartentisch.core.records import GameRecord

DATA_DIR_VARIABLE: Final = "KARTENTISCH_DATA_DIR"
"""An environment variable naming the data directory instead of the platform's default."""

MAX_LISTED: Final = 200
"""At most this many of the newest saved games are read for the list of unfinished ones."""


def data_directory() -> Path:
    """The user's data directory for kartentisch (not created here)."""
    override = os.environ.get(DATA_DIR_VARIABLE, "").strip()
    if override:
        return Path(override).expanduser()
    try:
        import platformdirs
    except ImportError:  # platformdirs is optional: the XDG default
        base = os.environ.get("XDG_DATA_HOME") or os.path.join("~", ".local", "share")
        return Path(base).expanduser() / "kartentisch"
    return Path(platformdirs.user_data_dir("kartentisch", appauthor=False))


def games_directory(create: bool = False) -> Path:
    """The folder of automatically saved games (created when ``create``)."""
    folder = data_directory() / "games"
    if create:
        folder.mkdir(parents=True, exist_ok=True)
    return folder


def new_game_path(game: str, seed: int, now: datetime.datetime | None = None) -> Path:
    """A fresh file name for a new game in :func:`games_directory` (created)."""
    moment = now or datetime.datetime.now()
    folder = games_directory(create=True)
    stem = f"{moment:%Y-%m-%d-%H%M%S}-{game}-{seed}"
    path = folder / f"{stem}.json"
    number = 2
    while path.exists():
        path = folder / f"{stem}-{number}.json"
        number += 1
    return path


@dataclass(frozen=True, slots=True)
class SavedGame:
    """One unfinished game in the data directory."""

    path: Path
    record: GameRecord
    modified: datetime.datetime


def unfinished_games() -> list[SavedGame]:
    """The unfinished games saved in :func:`games_directory`, the most recent first; a game
    stopped before its first move is left out (it holds nothing but its seed; ``play`` does
    not keep such a game, but a killed one may leave its file).

    Files that are not records (or no longer read) are left out silently: the list is a
    convenience, and ``resume FILE`` reports what is wrong with a given file.
    """
    folder = games_directory()
    try:
        files = [p for p in folder.iterdir() if p.suffix == ".json" and p.is_file()]
    except OSError:
        return []
    files.sort(key=lambda p: p.stat().st_mtime, reverse=True)
    found: list[SavedGame] = []
    for path in files[:MAX_LISTED]:
        try:
            record = GameRecord.load(path)
            modified = datetime.datetime.fromtimestamp(path.stat().st_mtime)
        except (OSError, KartentischError):
            continue
        if record.returns is None and record.actions:  # stopped before a move: nothing to
            found.append(SavedGame(path, record, modified))  # resume (play --seed deals it)
    return found


def is_in_games_directory(path: Path) -> bool:
    """Whether ``path`` lies in the automatic save folder (``resume`` alone finds it)."""
    try:
        return path.resolve().parent == games_directory().resolve()
    except OSError:
        return False


__all__ = [
    "DATA_DIR_VARIABLE",
    "SavedGame",
    "data_directory",
    "games_directory",
    "is_in_games_directory",
    "new_game_path",
    "unfinished_games",
]
