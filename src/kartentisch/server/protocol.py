"""The table server's message protocol: what clients send, how it is checked, what comes back.

Every message is one JSON object in one websocket text frame and carries the protocol
version ``v`` (:data:`PROTOCOL_VERSION`). Client messages are typed ``msgspec`` structs,
decoded strictly (no ``true`` for a number, no ``2.0`` for ``2``, no unknown fields); a
frame that is too large, not JSON, of another version or of an unknown type is refused with
a :class:`ProtocolError` whose reason code says which (the codes are in
:mod:`kartentisch.server.reasons`). The server's messages are plain
dictionaries built in :mod:`kartentisch.server.tables`; ``docs/protocol.md`` documents both
directions and every reason code below.
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

import msgspec

from kartentisch.core.errors import JSONValue, KartentischError, safe_repr
from kartentisch.core.rng import SEED_MAX
from kartentisch.server.reasons import SERVER_REASONS as SERVER_REASONS  # re-exported

PROTOCOL_VERSION: Final = 1
"""The version every message carries as ``v``; raised when a message changes incompatibly."""

MAX_MESSAGE_BYTES: Final = 8192
"""The longest client message the server reads; longer ones get ``message.too_large``."""

MAX_TOKEN_CHARS: Final = 128
"""Longest link token a client may send (the server's own are 43 characters)."""

MAX_NAME_CHARS: Final = 64
"""Longest ``name`` field read (a display name keeps at most 24 characters after trimming;
a longer one gets ``name.invalid``, a far longer one ``message.malformed``)."""

MAX_CHAT_CHARS: Final = 600
"""Longest chat ``text`` read (the line keeps at most 300 characters after trimming and
collapsing spaces; a longer one gets ``chat.too_long``, a far longer one
``message.malformed``)."""

MESSAGE_TYPES: Final = ("hello", "move", "sync", "leave", "take_seat", "ping", "name", "chat",
                        "react", "seat_bot", "seat_human", "remove", "close", "take_over",
                        "start", "rematch")
"""The client message types of this version."""



class ProtocolError(KartentischError):
    """A message or request the server refuses; ``code`` is one of :data:`SERVER_REASONS`."""

    default_code = "message.malformed"


def refuse(code: str, /, **params: object) -> ProtocolError:
    """The :class:`ProtocolError` with ``code``, ``params`` and its English text."""
    return SERVER_REASONS.error(ProtocolError, code, **params)


# ---------------------------------------------------------------- client -> server messages
_Token = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_TOKEN_CHARS)]
_Count = Annotated[int, msgspec.Meta(ge=0, le=SEED_MAX)]
_Ref = Annotated[int, msgspec.Meta(ge=0, le=SEED_MAX)]
_Name = Annotated[str, msgspec.Meta(max_length=MAX_NAME_CHARS)]
"""A display name as sent (checked further by :func:`kartentisch.server.people.clean_name`)."""
_ChatText = Annotated[str, msgspec.Meta(max_length=MAX_CHAT_CHARS)]
"""A chat line as sent (checked further by :func:`kartentisch.server.people.clean_chat`)."""
_SeatNo = Annotated[int, msgspec.Meta(ge=0, le=15)]
_Strength = Annotated[int, msgspec.Meta(ge=1, le=99)]
_BotName = Annotated[str, msgspec.Meta(min_length=1, max_length=40)]
Reaction = Literal["thumbs_up", "clap", "laugh", "wow", "think", "oops", "gg", "wave"]
"""The quick reactions (``kartentisch.server.people.REACTIONS`` in order)."""


class _Message(msgspec.Struct, forbid_unknown_fields=True, frozen=True, tag_field="type"):
    """Base of the client messages: ``type`` tags them, unknown fields are refused."""

    v: int
    """The protocol version; must be :data:`PROTOCOL_VERSION`."""


class Hello(_Message, tag="hello", frozen=True):
    """Join the table of a seat link or a watch link (the link's token), or, with only the
    host token, the host's table as a watcher with the host's powers."""

    token: _Token | None = None
    name: _Name | None = None
    """The person's display name (a seat's is stored with the seat)."""
    host: _Token | None = None
    """The table's host token: this connection may use the host's messages."""

    def __post_init__(self) -> None:
        if self.token is None and self.host is None:
            raise ValueError("hello needs a token (a seat's or a watch link's) or a host token")


class Move(_Message, tag="move", frozen=True):
    """Play ``action`` (an action id from the ``legal`` list) at move number ``move``."""

    move: _Count
    """How many moves the table had when the client chose this one; a stale one is refused."""
    action: _Count
    ref: _Ref | None = None
    """Any number; the answer to this move echoes it."""


class Sync(_Message, tag="sync", frozen=True):
    """Send me the whole view again."""


class Leave(_Message, tag="leave", frozen=True):
    """I leave: a bot plays my seat until I take it back."""


class TakeSeat(_Message, tag="take_seat", frozen=True):
    """I am back: take my seat from the bot that played it."""


class Ping(_Message, tag="ping", frozen=True):
    """Are you there? (answered with ``pong``)."""

    ref: _Ref | None = None


class Name(_Message, tag="name", frozen=True):
    """Call me ``name`` from now on (a seat's name is stored and shown to everyone)."""

    name: _Name


class Chat(_Message, tag="chat", frozen=True):
    """Say ``text`` to the table."""

    text: _ChatText


class React(_Message, tag="react", frozen=True):
    """A quick reaction, one of :data:`Reaction`."""

    reaction: Reaction


class SeatBot(_Message, tag="seat_bot", frozen=True):
    """Host only: let ``bot`` (of ``strength``) play the human seat ``seat``."""

    seat: _SeatNo
    bot: _BotName
    strength: _Strength | None = None


class SeatHuman(_Message, tag="seat_human", frozen=True):
    """Host only: give the seat a bot plays for a person back to that person."""

    seat: _SeatNo


class Remove(_Message, tag="remove", frozen=True):
    """Host only: revoke the seat's link (a new one invites someone else); a bot plays the
    seat meanwhile."""

    seat: _SeatNo


class Close(_Message, tag="close", frozen=True):
    """Host only: end the table now (what was played stays its record)."""


class TakeOver(_Message, tag="take_over", frozen=True):
    """Play this seat from this connection: the seat's other connection (another tab of
    the same person) becomes passive and only watches the seat's view."""


class Start(_Message, tag="start", frozen=True):
    """Host only: start the table now, though not every invited person has joined."""


class Rematch(_Message, tag="rematch", frozen=True):
    """At a finished table: offer (or accept) a rematch; the answer is my new link."""


ClientMessage = (Hello | Move | Sync | Leave | TakeSeat | Ping | Name | Chat | React | SeatBot
                 | SeatHuman | Remove | Close | TakeOver | Start | Rematch)
"""Every message a client may send."""


class _Envelope(msgspec.Struct):
    """The two fields read before the message's own type: its version and type."""

    v: Any = None
    type: Any = None


_ENVELOPE: Final = msgspec.json.Decoder(_Envelope)
_DECODER: Final = msgspec.json.Decoder(ClientMessage)


def decode_message(data: str | bytes) -> ClientMessage:
    """The client message in ``data``; raises :class:`ProtocolError` with the reason.

    The checks run from cheap to dear: size, JSON and object shape, version, type, fields.

    >>> decode_message('{"v": 1, "type": "ping"}')
    Ping(v=1, ref=None)
    >>> decode_message('{"v": 1, "type": "move", "move": 3, "action": true}')  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    kartentisch.server.protocol.ProtocolError: the message does not fit the protocol: ...
    """
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    if len(raw) > MAX_MESSAGE_BYTES:
        raise refuse("message.too_large", limit=MAX_MESSAGE_BYTES, size=len(raw))
    try:
        envelope = _ENVELOPE.decode(raw)
    except msgspec.ValidationError:
        raise refuse("message.malformed", detail="a message is a JSON object") from None
    except msgspec.DecodeError as exc:
        raise refuse("message.not_json", detail=_short(str(exc))) from None
    except RecursionError:
        raise refuse("message.malformed", detail="nested too deeply") from None
    if type(envelope.v) is not int or envelope.v != PROTOCOL_VERSION:
        raise refuse("message.bad_version", value=safe_repr(envelope.v),
                      supported=PROTOCOL_VERSION)
    if envelope.type not in MESSAGE_TYPES:
        raise refuse("message.unknown_type", value=safe_repr(envelope.type),
                      known=", ".join(MESSAGE_TYPES))
    try:
        message: ClientMessage = _DECODER.decode(raw)
        return message
    except msgspec.ValidationError as exc:
        raise refuse("message.malformed", detail=_short(str(exc))) from None
    except (msgspec.DecodeError, RecursionError):  # pragma: no cover - the envelope read it
        raise refuse("message.malformed", detail="nested too deeply") from None


def _short(text: str) -> str:
    return text if len(text) <= 160 else text[:157] + "..."


def error_message(error: KartentischError, **extra: JSONValue) -> dict[str, Any]:
    """The ``error`` message for ``error``: its code, params and English text."""
    return {"v": PROTOCOL_VERSION, "type": "error", **error.to_json(), **extra}
