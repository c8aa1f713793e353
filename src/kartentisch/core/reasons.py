"""Reason codes and their English templates: the one place an error's words come from.

A *reason table* maps stable dotted codes to English templates with ``{name}`` fields. The
engine builds an error's English message from its table, so logs read well; presenters look
the same code up in the gettext catalogue (the template is the message id) and fill in the
same params in the reader's language. :data:`CORE_REASONS` holds the codes every game shares;
each game adds its own as ``Game.reasons``. ``docs/reason-codes.md`` lists them all and a test
keeps it, and both catalogues, in step with
:func:`kartentisch.core.registry.all_reasons`, which gathers every table.

Template fields name params; a field may not index or call anything (``{seat}``, never
``{seat.x}``), so rendering is safe with any params.
"""

from __future__ import annotations

import string
from collections.abc import Iterator, Mapping
from typing import Final, TypeVar

from kartentisch.core.errors import KartentischError, json_safe, safe_repr

E = TypeVar("E", bound=KartentischError)


def N_(message: str) -> str:
    """Mark ``message`` for the catalogue without translating it (gettext's convention)."""
    return message


class Reasons(Mapping[str, str]):
    """An immutable table of reason codes and their English templates."""

    __slots__ = ("_templates",)

    def __init__(self, templates: Mapping[str, str]) -> None:
        for code, template in templates.items():
            for _text, field, _spec, _conv in string.Formatter().parse(template):
                if field is not None and not field.isidentifier():
                    raise ValueError(f"template of {code!r} has a field {field!r}: use plain names")
        self._templates = dict(templates)

    def __getitem__(self, code: str) -> str:
        return self._templates[code]

    def __iter__(self) -> Iterator[str]:
        return iter(self._templates)

    def __len__(self) -> int:
        return len(self._templates)

    def __or__(self, other: Mapping[str, str]) -> Reasons:
        overlap = set(self._templates) & set(other)
        if overlap:
            raise ValueError(f"reason codes defined twice: {sorted(overlap)}")
        return Reasons({**self._templates, **other})

    def error(self, cls: type[E], code: str, /, **params: object) -> E:
        """An error of class ``cls`` with ``code``, ``params`` and the rendered English text."""
        return cls(render(self._templates[code], params), code=code, params=params)


def render(template: str, params: Mapping[str, object]) -> str:
    """``template`` with its fields filled from ``params``; a missing field shows as ``?``.

    >>> render("seat {seat} cannot act; it is seat {current}'s turn", {"seat": 2})
    "seat 2 cannot act; it is seat ?'s turn"
    """
    values: dict[str, str] = {}
    for _text, field, _spec, _conv in string.Formatter().parse(template):
        if field is None:
            continue
        value = json_safe(params[field]) if field in params else "?"
        if isinstance(value, list):
            values[field] = ", ".join(v if isinstance(v, str) else safe_repr(v) for v in value)
        else:
            values[field] = value if isinstance(value, str) else safe_repr(value)
    return template.format_map(values)


CORE_REASONS: Final = Reasons(
    {
        "error": N_("{message}"),
        "action.invalid": N_("{value} is not a {game} action"),
        "action.bad_id": N_("action id {value} is not a whole number from 0 to {last}"),
        "action.illegal": N_("{action} is not legal now"),
        "action.not_your_turn": N_("seat {seat} cannot act: it is seat {current}'s turn"),
        "action.not_seat_to_move": N_("nobody may act now"),
        "action.game_over": N_("the game is over; no more moves"),
        "action.ambiguous": N_("{text} could mean several moves: {choices}"),
        "action.unparsable": N_("{text} is not a move: {hint}"),
        "seat.invalid": N_("seat {value} is not a seat of this game: seats are 0 to {last}"),
        "seed.invalid": N_("the seed {value} is not a whole number from 0 to {last}"),
        "game.unknown": N_("unknown game {value}; known games: {known}"),
        "players.invalid": N_("{game} is played by {low} to {high} players, not {value}"),
        "options.not_object": N_(
            "rules options must be an object of names and values, not {value}"
        ),
        "options.unknown": N_("unknown option {name}; known options: {known}"),
        "options.bad_bool": N_("option {name} takes true or false, not {value}"),
        "options.bad_int": N_("option {name} takes a whole number, not {value}"),
        "options.bad_text": N_("option {name} takes text, not {value}"),
        "options.bad_choice": N_("option {name} cannot be {value}; allowed: {allowed}"),
        "options.bad_combination": N_("these options do not go together: {detail}"),
        "document.invalid": N_("{what}: {detail}"),
        "document.too_deep": N_("{what} is nested too deeply to be a valid document"),
        "position.invalid": N_("impossible position: {detail}"),
        "position.wrong_game": N_("this is a position of {found}, not of {expected}"),
        "position.wrong_format": N_("unknown position format {found}; expected {expected}"),
        "record.wrong_format": N_("unknown record format {found}; expected {expected}"),
        "record.bad_action": N_("action {index} ({text}) does not replay: {detail}"),
        "record.returns_differ": N_("the record's returns differ from those of the replayed game"),
        "record.returns_unfinished": N_("the record has returns but its game is not over"),
        "record.seats_mismatch": N_(
            "the record's seats ({count}) do not match its number of players ({players})"),
        "record.unreadable": N_("{path} cannot be read as a record: {detail}"),
        "record.not_object": N_("a record must be a JSON object, not {value}"),
        "record.missing_field": N_("the record has no field {field}"),
        "record.unknown_field": N_("the record has a field {field} that records do not have"),
        "record.not_text": N_("the record's {field} must be text, not {value}"),
        "record.not_whole_number": N_("the record's {field} must be a whole number, not {value}"),
        "record.not_text_list": N_("the record's {field} must be a list of texts"),
        "record.bad_returns": N_(
            "the record's returns must be null or a list of {count} finite numbers"
        ),
        "record.too_large": N_("{path} is larger than {limit} bytes; no record is that large"),
        "record.empty": N_("{path} is empty"),
        "record.not_utf8": N_("{path} is not UTF-8 text (byte {offset})"),
        "record.not_json": N_("{path} is not JSON: error at line {line}, column {column}"),
        "record.too_deep": N_("{path} is nested too deeply to be a record"),
        "record.huge_number": N_("{path} holds a number of {digits} digits; no record needs one"),
        "observation.not_over": N_("the full deal is revealed only when the game is over"),
    }
)
"""Codes shared by every game."""
