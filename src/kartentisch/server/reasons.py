"""The table server's reason codes and their English templates, importable without the server.

:func:`kartentisch.core.registry.all_reasons` takes these tables in (the core names this module,
as the game registry names the games' modules), so ``docs/reason-codes.md`` lists them and the
tests that every code reads in German cover them. This module therefore imports nothing but
the core's reason tables: no Starlette, SQLAlchemy or websockets. ``docs/protocol.md``
documents every code.
"""

from __future__ import annotations

from typing import Final

from kartentisch.core.reasons import N_, Reasons

SERVER_REASONS: Final = Reasons(
    {
        "message.too_large": N_("a message may have at most {limit} bytes, this one has {size}"),
        "message.not_text": N_("messages are JSON text frames, not binary frames"),
        "message.not_json": N_("the message is not JSON: {detail}"),
        "message.bad_version": N_(
            "protocol version {value} is not spoken here; this server speaks version {supported}"
        ),
        "message.unknown_type": N_("unknown message type {value}; known types: {known}"),
        "message.malformed": N_("the message does not fit the protocol: {detail}"),
        "session.hello_first": N_("send hello with your link's token first"),
        "session.unknown_link": N_("this link does not belong to any table here"),
        "session.already_joined": N_("this connection already sits at a table"),
        "move.stale": N_(
            "the move was made at move {got}, but the table is at move {current}; look again"
        ),
        "move.watcher": N_("watchers cannot make moves"),
        "move.stand_in": N_(
            "a bot plays this seat since you left; take your seat back before moving"
        ),
        "seat.watcher": N_("watchers have no seat to leave or take back"),
        "seat.not_left": N_("this seat is already yours"),
        "seat.already_left": N_("a bot already plays this seat"),
        "seat.other_tab": N_(
            "this seat is played in another tab or window; take it over here first"
        ),
        "seat.taken_over": N_(
            "this seat is now played in another tab or window; this one only watches"
        ),
        "clock.expired": N_("time ran out for {name}: the clock played move {move} for them"),
        "move.not_started": N_(
            "the game has not started yet: it starts when every invited player has joined"
            " or the host starts it"
        ),
        "start.already": N_("the game at this table has already started"),
        "rematch.not_finished": N_("a rematch can be played when this game is over"),
        "rematch.watcher": N_("only the players of this table can play a rematch"),
        "lobby.bad_request": N_("the request is not valid: {detail}"),
        "lobby.too_large": N_("a request may have at most {limit} bytes"),
        "lobby.unknown_table": N_("there is no table {table}"),
        "lobby.not_finished": N_("the record of table {table} is ready when its game is over"),
        "lobby.seat_count": N_("{game} with {players} players needs {players} seats, not {count}"),
        "lobby.unknown_bot": N_("there is no bot {bot} for {game}; bots: {known}"),
        "lobby.bad_strength": N_("bot strength is a whole number from 1 to {high}, not {value}"),
        "server.storage": N_("the move could not be stored, so it was not played; try again"),
        "server.bad_origin": N_(
            "requests from pages of other sites are not accepted here; open the table from"
            " this server's own address"
        ),
        "rate.too_fast": N_("too many requests at once; wait {retry_after} seconds"),
        "lobby.too_many_tables": N_(
            "too many new tables from here just now; wait {retry_after} seconds"
        ),
        "session.too_many_watchers": N_(
            "this table has {limit} watchers already, the most it takes"
        ),
        "session.too_many_connections": N_(
            "{limit} connections from your address are open already, the most allowed"
        ),
        "server.internal": N_("the server failed on this message; the table is unchanged"),
    }
)
"""The server's own reason codes (the games' and the core's come with their errors)."""

WEB_REASONS: Final = Reasons(
    {
        "web.hints_off": N_("hints are switched off at this table"),
        "web.hint_not_your_turn": N_("a hint is given to the player whose turn it is"),
        "web.no_open_seat": N_("no seat of table {table} is open any more"),
        "web.hint_busy": N_("the hint for this seat is still being worked out"),
        "web.hints_busy": N_("too many hints are being worked out just now; try again soon"),
        "web.bad_view": N_(
            "a replay is watched from a seat (0 to {last}), as a watcher or with all hands"
            " open, not from {value}"
        ),
    }
)
"""The reason codes of the browser page's routes (:mod:`kartentisch.server.web`)."""

NIGHT_REASONS: Final = Reasons(
    {
        "name.invalid": N_("this name cannot be used: {detail}"),
        "chat.empty": N_("a chat message needs some text"),
        "chat.too_long": N_("a chat message has at most {limit} characters, this one has"
                            " {length}"),
        "chat.bad_character": N_("a chat message may not contain the invisible character"
                                 " {code}"),
        "chat.too_fast": N_("you are writing too fast; wait {retry_after} seconds"),
        "chat.watchers_off": N_("watchers cannot chat at this table"),
        "host.not_host": N_("only the host of this table can do that"),
        "host.other_key": N_(
            "the links of this table were made by a server with another secret and cannot"
            " be shown again"),
        "host.bad_seat": N_("seat {seat} cannot be changed like that: {detail}"),
        "host.game_over": N_("the game at this table is over"),
        "table.closed": N_("the host closed this table; nothing more is played at it"),
        "host.started": N_("the game has started"),
        "host.bot_seated": N_("the host let the bot {bot} play for {name}"),
        "host.person_seated": N_("the host gave {name} their seat back"),
        "host.removed": N_("the host removed {name}; their seat has a new invitation link"),
        "host.closed": N_("the host closed the table"),
    }
)
"""The game night's codes: names, chat, the host's acts and their notices
(:mod:`kartentisch.server.people` and the host's messages in
:mod:`kartentisch.server.tables`)."""

__all__ = ["NIGHT_REASONS", "SERVER_REASONS", "WEB_REASONS"]
