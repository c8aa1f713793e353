"""Game records: game, player count, options, seed and actions replay to the identical state.

A record is a JSON document (:data:`RECORD_DOCUMENT` describes it, and its JSON Schema is
generated from that type). Reading one checks it in this order, each failure an
:class:`~kartentisch.core.errors.InvalidRecordError` with a reason code:

1. the file: at most :data:`MAX_RECORD_BYTES`, UTF-8, JSON (or JSON Lines: the first line),
   not absurdly nested (``record.too_large``, ``record.empty``, ``record.not_utf8``,
   ``record.not_json``, ``record.too_deep``, ``record.huge_number``);
2. the format (``record.wrong_format``: older formats dealt other cards from the same seed);
3. the fields, one by one (``record.missing_field``, ``record.unknown_field``,
   ``record.not_text``, ``record.not_whole_number``, ``record.not_text_list``,
   ``record.bad_returns``, ``record.seats_mismatch``), the game, player count and options
   (the game's own codes: ``game.unknown``, ``players.invalid``, ``options.*``) and the seed
   (``seed.invalid``);
4. on :meth:`GameRecord.replay`: every action (``record.bad_action``) and the returns
   (``record.returns_unfinished``, ``record.returns_differ``).

Records are written atomically (:func:`write_atomically`): a crash leaves the old file or
the new one, never half a file.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import sys
import tempfile
import weakref
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Final, Literal

import msgspec

from kartentisch.core.documents import Document, read_document
from kartentisch.core.errors import InvalidRecordError, KartentischError, safe_repr
from kartentisch.core.protocol import JSON, Game, State
from kartentisch.core.registry import load_game
from kartentisch.core.rng import SEED_MAX, check_seed

RECORD_FORMAT: Final = "kartentisch-record/3"
"""Raised whenever the same seed would deal differently. Format 1 records were dealt with the
first Krass Kariert shuffle, format 2 ones with each game's own ``random.Random``; since every
game now deals through :mod:`kartentisch.core.rng`, older records would replay other deals,
so they are refused, not misread."""

MAX_RECORD_BYTES: Final = 64 * 1024 * 1024
"""The largest record file read (64 MiB); a game of tens of thousands of moves needs ~1 MiB."""

NOTATION_CACHE_SIZE: Final = 1 << 16
"""The most action texts remembered per game (see :func:`action_texts`)."""

_NOTATIONS: weakref.WeakKeyDictionary[Game[Any, Any, Any], tuple[dict[int, str], list[Any]]] = (
    weakref.WeakKeyDictionary())
"""Per game: ``id(action) -> its text notation`` for the actions records have needed, and
those actions. Games hand out the same action object for the same move (interned), so the
object's identity finds it faster than its hash. The memo keeps every action it has a key
for alive, so no other object can have that id while the key exists."""

_ID_NOTATIONS: weakref.WeakKeyDictionary[Game[Any, Any, Any], dict[int, str]] = (
    weakref.WeakKeyDictionary())
"""Per game: action id -> its text notation, for states that tell their history by ids."""

RETURNS_TOLERANCE: Final = 1e-9
"""How far a record's returns may differ from the replayed ones (rounding in other tools)."""


def action_texts(game: Game[Any, Any, Any], actions: Sequence[Any]) -> list[str]:
    """The text notation of each of ``actions`` (``game.format_action``), as records hold it.

    A record's notation is formatted without a state, so it is a function of the action
    alone; each game remembers the texts it has made (an arena writes the same few hundred
    actions game after game: a dictionary lookup costs a fraction of formatting).
    """
    try:
        memo, keep = _NOTATIONS[game]
    except KeyError:
        memo, keep = _NOTATIONS[game] = ({}, [])
    except TypeError:  # a game that cannot be weakly referenced: format every time
        return [game.format_action(a) for a in actions]
    if len(memo) > NOTATION_CACHE_SIZE:  # actions that are not interned fill it: start over
        memo.clear()
        keep.clear()
    texts: list[str | None] = list(map(memo.get, map(id, actions)))
    if None in texts:
        for k, action in enumerate(actions):
            if texts[k] is None:
                text = memo.get(id(action))
                if text is None:
                    text = memo[id(action)] = game.format_action(action)
                    keep.append(action)
                texts[k] = text
    return texts  # type: ignore[return-value]  # every None was replaced


def id_texts(game: Game[Any, Any, Any], ids: Iterable[int]) -> list[str]:
    """The text notation of the actions with ``ids``, remembered per game like
    :func:`action_texts` (no action object is made for an id already seen)."""
    try:
        memo = _ID_NOTATIONS[game]
    except KeyError:
        memo = _ID_NOTATIONS[game] = {}
    except TypeError:  # a game that cannot be weakly referenced: format every time
        return [game.format_action(game.action_from_id(i)) for i in ids]
    if len(memo) > NOTATION_CACHE_SIZE:
        memo.clear()
    ids = ids if isinstance(ids, Sequence) else list(ids)
    texts: list[str | None] = list(map(memo.get, ids))
    if None in texts:
        for k, aid in enumerate(ids):
            if texts[k] is None:
                text = memo.get(aid)
                if text is None:
                    text = memo[aid] = game.format_action(game.action_from_id(aid))
                texts[k] = text
    return texts  # type: ignore[return-value]  # every None was replaced


def history_texts(state: State[Any, Any]) -> list[str]:
    """The notation of every action played in ``state``, oldest first, as a record holds it.

    A state that keeps its history compactly may offer ``history_ids()``: the ids of
    ``state.history``, in order, without making the action objects (an optional part of
    the protocol); the texts then come from the ids. Otherwise from ``state.history``.
    """
    ids_of = getattr(state, "history_ids", None)
    if ids_of is None:
        return action_texts(state.game, state.history)
    return id_texts(state.game, ids_of())


_KNOWN_TEXTS: dict[tuple[type, int, str], dict[str, int]] = {}
"""Per game class, player count and options: canonical action text -> action id, for the
texts replays have read (see :func:`_known_texts`)."""


def _known_texts(game: Game[Any, Any, Any]) -> dict[str, int]:
    """The canonical texts (``game.format_action`` of an action) already read in replays of
    games with ``game``'s settings, with their action ids.

    A canonical text names one action whatever the state (the notation is a function of the
    action alone), so a replay applies its id directly (``apply_id`` checks it is legal)
    instead of parsing the text again; should the id be refused, the text is read as
    before, so errors stay the same.
    """
    key = (type(game), game.players, json.dumps(game.options_json(), sort_keys=True))
    known = _KNOWN_TEXTS.get(key)
    if known is None:
        if len(_KNOWN_TEXTS) > 64:
            _KNOWN_TEXTS.clear()
        known = _KNOWN_TEXTS[key] = {}
    return known


def _about(text: str, **bounds: Any) -> msgspec.Meta:
    """A field's description (and bounds) in the record's JSON Schema."""
    return msgspec.Meta(description=text, **bounds)


class RecordDocument(Document, frozen=True):
    """A game record as JSON: enough to replay the game exactly."""

    format: Annotated[Literal["kartentisch-record/3"], _about(
        "The record format; older formats dealt other cards from the same seed.")]
    game: Annotated[str, _about("The game's registry name, e.g. krass-kariert.")]
    players: Annotated[int, _about("The player count.", ge=1)]
    seed: Annotated[int, _about("The seed of the deal.", ge=0, le=SEED_MAX)]
    actions: Annotated[list[str], _about(
        "Every action, in the game's text notation, in the order played.")]
    options: Annotated[dict[str, bool | int | str], _about(
        "The rules options, names and values as `kartentisch rules-options` lists them.")
    ] = msgspec.field(default_factory=dict)
    seats: Annotated[list[str], _about(
        "Who sat where (bot names or human): none, or one per player; informational.")
    ] = msgspec.field(default_factory=list)
    names: Annotated[list[Annotated[str, msgspec.Meta(max_length=64)] | None], _about(
        "The display names of the seats' people (null for a bot or an unnamed person): "
        "none, or one per player; informational.")] = msgspec.field(default_factory=list)
    returns: Annotated[list[float] | None, _about(
        "One return per seat when the game ended, else null; checked on replay.")] = None
    index: Annotated[Annotated[int, msgspec.Meta(ge=0)] | None, _about(
        "The game's number in an arena run (JSON Lines files); informational.")] = None


RECORD_DOCUMENT: Final = RecordDocument
"""The record document type, for the JSON Schema generator."""

_FIELDS: Final = frozenset(RecordDocument.__struct_fields__)
_REQUIRED: Final = ("format", "game", "players", "seed", "actions")


def _error(code: str, message: str, **params: object) -> InvalidRecordError:
    return InvalidRecordError(message, code=code, params=params)


def _as_record_error(error: KartentischError) -> InvalidRecordError:
    """``error`` (a seed, game or options error) as a record error with the same reason."""
    if isinstance(error, InvalidRecordError):
        return error
    result = InvalidRecordError(str(error), code=error.code, params=error.params)
    result.__cause__ = error
    return result


def _check_fields(data: Mapping[str, Any]) -> None:
    """Each field's JSON type, with a reason code per kind of mistake."""
    fmt = data.get("format")
    if "format" in data and fmt != RECORD_FORMAT:
        raise _error("record.wrong_format",
                     f"unknown record format {safe_repr(fmt)}; expected {RECORD_FORMAT!r}",
                     found=safe_repr(fmt), expected=RECORD_FORMAT)
    unknown = sorted((str(k) for k in data if k not in _FIELDS), key=safe_repr)
    if unknown:
        raise _error("record.unknown_field",
                     f"the record has a field {safe_repr(unknown[0])} that records do not have",
                     field=unknown[0])
    for name in _REQUIRED:
        if name not in data:
            raise _error("record.missing_field", f"the record has no field {name!r}", field=name)
    if not isinstance(data["game"], str):
        raise _error("record.not_text",
                     f"the record's game must be text, not {safe_repr(data['game'])}",
                     field="game", value=safe_repr(data["game"]))
    for name in ("players", "index"):
        value = data.get(name)
        if value is None and name == "index":
            continue
        if type(value) is not int or (name == "index" and value < 0):
            raise _error("record.not_whole_number",
                         f"the record's {name} must be a whole number, not {safe_repr(value)}",
                         field=name, value=safe_repr(value))
    for name in ("actions", "seats"):
        value = data.get(name, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise _error("record.not_text_list", f"the record's {name} must be a list of texts",
                         field=name)
    names = data.get("names", [])
    if not isinstance(names, list) or not all(v is None or isinstance(v, str) for v in names):
        raise _error("record.not_text_list", "the record's names must be a list of texts",
                     field="names")


def _check_returns(returns: object, players: int) -> None:
    """``null`` or one finite number per seat."""
    if returns is not None and not (
        isinstance(returns, list)
        and len(returns) == players
        and all(type(r) in (int, float) and math.isfinite(r) for r in returns)
    ):
        raise _error("record.bad_returns",
                     f"the record's returns must be null or a list of {players} finite numbers",
                     count=players)


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
    names: list[str | None] = field(default_factory=list)
    """The seats' display names (None for a bot or an unnamed person), or none at all;
    informational (a record from a game night names its people)."""
    returns: list[float] | None = None
    """The final returns, when the game ended; checked on replay."""
    index: int | None = None
    """The game's number in an arena run; informational."""

    @classmethod
    def from_state(
        cls, name: str, state: State[Any, Any], seats: Sequence[str] = (),
        index: int | None = None, names: Sequence[str | None] = (),
    ) -> GameRecord:
        """The record of ``state`` so far."""
        game = state.game
        return cls(
            game=name,
            players=game.players,
            seed=state.seed,
            options=game.options_json(),
            actions=history_texts(state),
            seats=list(seats),
            names=list(names),
            returns=list(state.returns()) if state.is_terminal() else None,
            index=index,
        )

    def to_json(self) -> JSON:
        """A JSON-ready dictionary (a :data:`RECORD_DOCUMENT`)."""
        data: JSON = {
            "format": RECORD_FORMAT,
            "game": self.game,
            "players": self.players,
            "seed": self.seed,
            "options": self.options,
            "seats": self.seats,
            "actions": self.actions,
            "returns": self.returns,
        }
        if self.names:
            data["names"] = self.names
        if self.index is not None:
            data["index"] = self.index
        return data

    @classmethod
    def from_json(cls, data: object) -> GameRecord:
        """Read and check a record dictionary (everything but the replay, see the module
        docstring); raises :class:`InvalidRecordError` with a reason code naming the problem."""
        if not isinstance(data, Mapping):
            raise _error("record.not_object",
                         f"a record must be a JSON object, not {safe_repr(data)}",
                         value=safe_repr(data))
        _check_fields(data)
        seats = data.get("seats", [])
        try:
            check_seed(data["seed"])
            game = load_game(data["game"], data["players"], data.get("options"))
        except KartentischError as error:
            raise _as_record_error(error) from error
        if len(seats) not in (0, game.players):
            raise _error("record.seats_mismatch",
                         f"the record names {len(seats)} seats for {game.players} players",
                         count=len(seats), players=game.players)
        names = data.get("names", [])
        if len(names) not in (0, game.players):
            raise _error("record.seats_mismatch",
                         f"the record names {len(names)} seats for {game.players} players",
                         count=len(names), players=game.players)
        _check_returns(data.get("returns"), game.players)
        # The document type has the last word (and gives the JSON Schema).
        document = read_document(dict(data), RecordDocument, what="record",
                                 error=InvalidRecordError)
        return cls(
            game=document.game,
            players=document.players,
            seed=document.seed,
            options=dict(document.options),
            actions=list(document.actions),
            seats=list(document.seats),
            names=list(document.names),
            returns=None if document.returns is None else list(document.returns),
            index=document.index,
        )

    def new_game(self) -> Game[Any, Any, Any]:
        """The game the record was played with."""
        try:
            return load_game(self.game, self.players, self.options)
        except KartentischError as error:
            raise _as_record_error(error) from error

    def replay(self, upto: int | None = None) -> State[Any, Any]:
        """The state after the first ``upto`` actions (all when ``None``).

        A full replay also checks the returns: a record may carry them only when its game is
        over, and they must be the replayed game's.
        """
        game = self.new_game()
        try:
            state: State[Any, Any] = game.new_initial_state(self.seed)
        except KartentischError as error:
            raise _as_record_error(error) from error
        known = _known_texts(game)
        for index, text in enumerate(self.actions[:upto]):
            try:
                aid = known.get(text)
                if aid is not None and state.is_legal_id(aid):
                    # A known canonical text (a valid id of this game), legal here: what
                    # apply_id would check, without its range and seat checks.
                    state.apply_unchecked(aid)
                    continue
                # Otherwise (not known yet, or refused here) the text is read: its own
                # error, or the action it names.
                action = game.parse_action(text, state)
                state.apply(action)
                if aid is None and len(known) < NOTATION_CACHE_SIZE and (
                        game.format_action(action) == text):
                    known[text] = game.action_to_id(action)
            except KartentischError as error:
                raise _error(
                    "record.bad_action",
                    f"action {index + 1} ({safe_repr(text)}) does not replay: {error}",
                    index=index + 1, text=text, detail=str(error),
                    cause={"code": error.code, "params": error.params},
                ) from error
        if upto is None and self.returns is not None:
            if not state.is_terminal():
                raise _error("record.returns_unfinished",
                             "the record has returns but its game is not over")
            replayed = state.returns()
            if len(replayed) != len(self.returns) or any(
                not math.isclose(a, b, rel_tol=0.0, abs_tol=RETURNS_TOLERANCE)
                for a, b in zip(replayed, self.returns, strict=False)
            ):
                raise _error("record.returns_differ",
                             "the record's returns differ from those of the replayed game",
                             found=list(self.returns), replayed=list(replayed))
        return state

    def save(self, path: str | Path) -> None:
        """Write the record as indented JSON, atomically (see :func:`write_atomically`)."""
        write_atomically(path, json.dumps(self.to_json(), indent=1) + "\n")

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        """Read and check a record file (JSON, or the first line of a JSON Lines file).

        Raises:
            OSError: the file cannot be opened or read (missing, a directory, no permission).
            InvalidRecordError: anything wrong with its content, with a reason code.
        """
        text = read_record_text(path)
        try:
            data = _decode(text, path)
        except InvalidRecordError as whole:
            if whole.code != "record.not_json":
                raise
            first = text.lstrip().partition("\n")[0]
            try:  # a JSON Lines file: its first line is a record of its own
                data = _decode(first, path)
            except InvalidRecordError:
                raise whole from None
        return cls.from_json(data)


def read_records(path: str | Path) -> Iterator[GameRecord]:
    """Every record of a JSON Lines file (one record per line, blank lines skipped), checked
    like :meth:`GameRecord.from_json`; a bad line raises with its file line number in the
    error's ``line`` param (see :func:`load_records` to keep the good games instead)."""
    for number, line in enumerate(read_record_text(path).splitlines(), start=1):
        if not line.strip():
            continue
        try:
            yield GameRecord.from_json(_decode(line, path))
        except InvalidRecordError as error:
            raise _at_line(error, number) from None


def _at_line(error: InvalidRecordError, number: int) -> InvalidRecordError:
    """``error`` of one line of a JSON Lines file, naming that line of the file."""
    error.params["line"] = number
    if error.code != "record.not_json":  # its own message names the line already
        error.args = (f"line {number}: {error}",)
    elif error.params.get("column") is not None:
        error.args = (f"{error.params.get('path')} is not JSON: error at line {number}, "
                      f"column {error.params['column']}",)
    return error


@dataclass(slots=True)
class RecordFile:
    """What :func:`load_records` read: the good games and the lines it could not read."""

    games: list[tuple[int, GameRecord]]
    """``(file line number, record)`` of every good record, in file order."""
    problems: list[InvalidRecordError]
    """One error per bad line (its ``line`` param is the file line number)."""


def load_records(path: str | Path) -> RecordFile:
    """Every game in a record file: one JSON document, or JSON Lines of many games.

    Unlike :func:`read_records`, a bad line (cut short by a crash, edited by hand) does not
    lose the others: it is reported in ``problems`` and the good games are still read.

    Raises:
        OSError: the file cannot be read.
        InvalidRecordError: the file as a whole is unreadable (too large, not UTF-8, empty),
            or it is one JSON document that is not a good record.
    """
    text = read_record_text(path)
    try:
        whole = _decode(text, path)
    except InvalidRecordError as error:
        if error.code != "record.not_json" or "\n" not in text.strip():
            raise
    else:
        return RecordFile([(1, GameRecord.from_json(whole))], [])
    games: list[tuple[int, GameRecord]] = []
    problems: list[InvalidRecordError] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            games.append((number, GameRecord.from_json(_decode(line, path))))
        except InvalidRecordError as error:
            problems.append(_at_line(error, number))
    return RecordFile(games, problems)


def read_record_text(path: str | Path) -> str:
    """A record file's text: at most :data:`MAX_RECORD_BYTES`, UTF-8, not empty.

    A file that never ends (``/dev/zero``) or is too large is refused after reading the limit.
    Raises :class:`OSError` when the file cannot be read at all.
    """
    name = str(path)
    with open(path, "rb") as handle:
        info = os.fstat(handle.fileno())
        if info.st_size > MAX_RECORD_BYTES:  # a regular file: refuse without reading it
            raw = b""
            too_large = True
        else:
            raw = handle.read(MAX_RECORD_BYTES + 1)
            too_large = len(raw) > MAX_RECORD_BYTES
    if too_large:
        raise _error("record.too_large",
                     f"{name} is larger than {MAX_RECORD_BYTES} bytes; no record is that large",
                     path=name, limit=MAX_RECORD_BYTES)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise _error("record.not_utf8", f"{name} is not UTF-8 text (byte {exc.start})",
                     path=name, offset=exc.start) from None
    if not text.strip():
        raise _error("record.empty", f"{name} is empty", path=name)
    return text


def _parse_int(text: str) -> int:
    """JSON integers, refusing those too long for Python to read (a clean error, not a
    ``ValueError`` from the interpreter's digit limit)."""
    digits = len(text.lstrip("-"))
    limit = sys.get_int_max_str_digits()
    if limit and digits > limit:
        raise _HugeNumberError(digits)
    return int(text)


class _HugeNumberError(Exception):
    def __init__(self, digits: int) -> None:
        super().__init__(digits)
        self.digits = digits


def _decode(text: str, path: str | Path) -> Any:
    """``text`` parsed as JSON, with a record error for every way it can fail."""
    name = str(path)
    try:
        return json.loads(text, parse_int=_parse_int)
    except json.JSONDecodeError as exc:
        raise _error("record.not_json",
                     f"{name} is not JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}",
                     path=name, line=exc.lineno, column=exc.colno) from None
    except RecursionError:
        raise _error("record.too_deep", f"{name} is nested too deeply to be a record",
                     path=name) from None
    except _HugeNumberError as exc:
        raise _error("record.huge_number",
                     f"{name} holds a number of {exc.digits} digits; no record needs one",
                     path=name, digits=exc.digits) from None


def write_atomically(path: str | Path, text: str | bytes) -> None:
    """Write ``text`` (UTF-8; or bytes as they are) to ``path`` so that a crash leaves the
    old file or the new one.

    The text goes to a temporary file beside ``path``, is flushed to disk (``fsync``) and
    renamed over ``path`` (atomic on POSIX and Windows); the directory is synced as well,
    where the platform allows, so the rename itself survives a power cut. A new file gets the
    usual permissions (``0o666`` less the umask), a replaced one keeps its own.
    """
    target = Path(os.path.realpath(path))
    try:
        mode = target.stat().st_mode & 0o7777
    except FileNotFoundError:
        mode = 0o666 & ~_umask()
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.",
                                         suffix=".tmp")
    try:
        data = text.encode("utf-8") if isinstance(text, str) else text
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    _sync_directory(target.parent)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _sync_directory(directory: Path) -> None:
    """``fsync`` a directory so a rename in it is on disk (not possible on Windows)."""
    try:
        handle = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(handle)
    finally:
        os.close(handle)


__all__ = [
    "MAX_RECORD_BYTES",
    "NOTATION_CACHE_SIZE",
    "RECORD_DOCUMENT",
    "RECORD_FORMAT",
    "GameRecord",
    "RecordDocument",
    "RecordFile",
    "action_texts",
    "history_texts",
    "id_texts",
    "load_records",
    "read_record_text",
    "read_records",
    "write_atomically",
]
