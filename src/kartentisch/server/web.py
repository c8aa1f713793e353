"""What the browser page needs beyond the table protocol: words, explanations, hints, replays.

The page (``static/``) plays over the websocket protocol of :mod:`kartentisch.server.tables`;
these routes add what a person at a table needs and the protocol leaves out:

- ``GET /api/web/catalogue?lang=de`` the gettext catalogue the terminal uses (every message,
  plural forms, and the English template of every reason code, which is the message id), so
  the page speaks the same words as ``kartentisch play``;
- ``GET /api/web/games`` the games with a one-line explanation of every rules option;
- ``POST /api/web/tables`` create a table as ``POST /api/tables`` does, plus whether the
  hint button is offered at it;
- ``GET /api/web/tables/{id}`` the page's settings of a table (hints on or off);
- ``POST /api/web/explain`` why a move is not allowed: the page sends the move it tried (in
  the game's notation) with its link's token, and gets the engine's reason code and params,
  or the move's id when it is allowed after all. It never plays anything;
- ``POST /api/web/hint`` the ismcts bot's suggestion for the seat to move, with its estimate
  of the chance to win;
- ``GET /api/web/replay/{id}?view=...`` and ``POST /api/web/replay?view=...`` (a
  ``kartentisch replay`` record as the body) every step of a finished game as one view sees
  it: a seat's, a watcher's, or ``all`` with every hand open.

Link tokens travel in request bodies only, never in a URL, as with the websocket.
"""

from __future__ import annotations

import asyncio
import functools
import json
import math
import time
from collections.abc import Sequence
from typing import Any, Final

import msgspec
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from kartentisch.core.errors import KartentischError
from kartentisch.core.protocol import Game, Seat, State
from kartentisch.core.reasons import N_, all_reasons
from kartentisch.core.records import GameRecord
from kartentisch.core.registry import load_game
from kartentisch.core.rng import derive_seed
from kartentisch.locale import LANGUAGES, catalogue_path, ngettext
from kartentisch.server.protocol import (
    PROTOCOL_VERSION,
    SERVER_REASONS,
    ProtocolError,
    error_message,
    refuse,
)
from kartentisch.server.reasons import WEB_REASONS
from kartentisch.server.tables import CreateTable, Hub, LiveTable, new_token

JSON = dict[str, Any]

MAX_BODY_BYTES: Final = 1 << 20
"""The largest request body read (a record of a long game fits easily)."""

HINT_SECONDS: Final = 0.6
"""How long the hint's search thinks."""

# WEB_REASONS, the codes of these routes, live in kartentisch.server.reasons (no Starlette
# there), so that kartentisch.core.reasons.all_reasons() and docs/reason-codes.md have them.


def _refuse_web(code: str, /, **params: object) -> ProtocolError:
    return WEB_REASONS.error(ProtocolError, code, **params)


# ---------------------------------------------------------------- the page's own words
# Every message the page shows is listed here, so `python -m kartentisch.locale.update`
# extracts it into the catalogue (the page's JavaScript cannot be scanned by babel); the test
# tests/browser/test_catalogue.py checks that every t("...") in static/ is listed.
PAGE_MESSAGES: Final = (
    # @generated-page-messages-start
    N_("Language"),
    N_("Main"),
    N_("Lobby"),
    N_("kartentisch: card games in the browser"),
    N_("most cards"),
    N_("most spades"),
    N_("big casino (10 of diamonds)"),
    N_("little casino (2 of spades)"),
    N_("aces"),
    N_("sweeps"),
    N_("pack total"),
    N_("trail {card}"),
    N_("{card} takes {items}"),
    N_("{card} raises {items} to {value}"),
    N_("{card} builds {value} with {items}"),
    N_("Pack {pack}"),
    N_("Dealer: {name}"),
    N_("hidden card"),
    N_("loose card {card}"),
    N_("call of {value}s"),
    N_("build of {value}"),
    N_("owner: {name}"),
    N_("Table"),
    N_("(empty)"),
    N_("your card {card}"),
    N_("Trail"),
    N_("Capture"),
    N_("Raise to {value}"),
    N_("Build {value}"),
    N_("Clear"),
    N_("Choose a card from your hand, then the table items it takes or builds with."),
    N_("Your hand"),
    N_("(no cards)"),
    N_("big casino"),
    N_("little casino"),
    N_("Pack"),
    N_("Points"),
    N_("Total"),
    N_("Choose a card from your hand first."),
    N_("── Pack {pack} begins; {name} deals ──"),
    N_("Four cards go face up on the table: {cards}"),
    N_("You get {cards}."),
    N_("{name} plays {card} and takes {cards}."),
    N_("A sweep!"),
    N_("{name} plays {card} onto {cards}: a call of {value}s."),
    N_("{name} plays {card} onto {cards}: a build of {value}."),
    N_("{name} trails {card}."),
    N_("{name} takes the rest of the table: {cards}."),
    N_("Pack {pack} is over. Points:"),
    N_("Game over. Winner: {names} with {points} points."),
    N_("You win!"),
    N_("You lose."),
    N_("Capture loose cards by value or build sums to take later; cards, spades, aces and "
       "the two casinos score."),
    N_("single {high}"),
    N_("2-run up to {high}"),
    N_("pair of {high}s"),
    N_("3-run up to {high}"),
    N_("triple of {high}s"),
    N_("a single {high}"),
    N_("a 2-run up to {high}"),
    N_("a pair of {high}s"),
    N_("a 3-run up to {high}"),
    N_("a triple of {high}s"),
    N_("nothing"),
    N_("Nachzieh"),
    N_("Stopp"),
    N_("play positions {first} to {last}"),
    N_("play position {position}"),
    N_("X as {values}"),
    N_("reserve card {n} to position {position}"),
    N_("insert the drawn card at position {position}"),
    N_("give up the deal"),
    N_("Deal {deal} · round {round}"),
    N_("reserve card {card} → position {position}"),
    N_("This round"),
    N_("nothing played yet"),
    N_("to beat: {best}"),
    N_("hand of {name}"),
    N_("Reserve"),
    N_("put the card at position {position}"),
    N_("position {position}: {card}"),
    N_("seen by the others"),
    N_("You drew"),
    N_("Click the gap where it goes."),
    N_("Click the gap where reserve card {n} goes."),
    N_("Which value should the X card stand for?"),
    N_("Play {cards}"),
    N_("Give up the deal"),
    N_("(fixed order; marked cards were seen by the others)"),
    N_("Your reserve"),
    N_("reserve card {n}: {card}"),
    N_("── Deal {deal} begins ──"),
    N_("Round {round}: {name} leads."),
    N_("{name} plays {combination}."),
    N_("{name} plays Stopp: the round ends at once."),
    N_("{name} plays Nachzieh."),
    N_("{name} takes reserve card {card} into the hand at position {position}."),
    N_("You draw {card} from the draw pile."),
    N_("{name} draws a card from the draw pile."),
    N_("You insert {card} at position {position}."),
    N_("{name} inserts the drawn card at position {position}."),
    N_("{name} wins the round and draws {count} cards."),
    N_("{name} wins the round."),
    N_("{name} has no cards left and is out of this deal."),
    N_("{name} concedes: the deal ends."),
    N_("{name} has no chip left to give."),
    N_("out"),
    N_("Game over: you lose."),
    N_("You win: somebody else ran out of chips first."),
    N_("Player"),
    N_("Chips"),
    N_("Result"),
    N_("lost"),
    N_("won"),
    N_("Beat the combination on the table with neighbouring cards from a hand you may never "
       "sort; whoever runs out of chips loses."),
    N_("play a personal card (or show 3/3 or Σ20 first)"),
    N_("action of the 0: turn a card over, or pass"),
    N_("action of the 1: take a card, or pass"),
    N_("action of the 2: draw a card, or pass to stop"),
    N_("action of the 3: throw a further 3, or pass to stop"),
    N_("action of the 4: make the next player sit out, or pass"),
    N_("the total is 15: play a second card as a 5, or pass"),
    N_("after the play: show 3/3 or Σ20, or pass to end the turn"),
    N_("after a foul: put a lowest personal card on your score pile, or pass"),
    N_("compensation for a taken card: draw one, or pass"),
    N_("compensation for sitting out: draw one (or with 5 cards put a lowest on your score "
       "pile), or pass"),
    N_("the game is over"),
    N_("the total went over the target"),
    N_("three 0s turned the total over the target"),
    N_("the second card on 15 was not a 5"),
    N_("the thrown card was not a 3"),
    N_("the 3/3 set was wrong"),
    N_("the Σ set was wrong"),
    N_("play personal card {n}"),
    N_("play personal card {n} as a second card (a 5)"),
    N_("throw personal card {n} as a 3"),
    N_("put personal card {n} on your score pile"),
    N_("turn over card {n} of {name}"),
    N_("take card {n} of {name}"),
    N_("turn over card {n} of your score pile"),
    N_("take card {n} back from your score pile"),
    N_("take the top of the draw pile"),
    N_("take the top of the discard pile"),
    N_("draw a card"),
    N_("make the next player sit out"),
    N_("pass"),
    N_("show your cards: up sides sum to the target"),
    N_("show your cards: down sides sum to the target"),
    N_("show cards {cards} as 3/3"),
    N_("{up} up, {down} down"),
    N_("crosswise"),
    N_("Play pile"),
    N_("{name}: {step}"),
    N_("Final lap."),
    N_("Draw pile"),
    N_("Discard pile"),
    N_("card {n} of {name}"),
    N_("score card {n}"),
    N_("sits out next turn"),
    N_("Score pile"),
    N_("── New game: first turn to {name} (highest personal cards) ──"),
    N_("Turn {turn}: {name}, total {total}."),
    N_("{name} played a card counting {number}: total {total}."),
    N_("{name} played a second card as a 5, counting {number}: total {total}."),
    N_("{name} threw a card as a 3; it shows {number}."),
    N_("{name} turned personal card {index} of {owner} over: now {card}."),
    N_("{name} turned score card {index} over: now {card}."),
    N_("{name} took personal card {index} of {victim} ({up} up)."),
    N_("{name} took a card back from the score pile ({up} up)."),
    N_("{name} drew a card ({up} up)."),
    N_("{name} took the top of the discard pile ({up} up)."),
    N_("{name} made {victim} sit out."),
    N_("Turn of {name} skipped (sitting out)."),
    N_("Turn of {name} skipped (no personal card)."),
    N_("Score pile of {name}: + {card}, crosswise (counts double)."),
    N_("Score pile of {name}: + {card}."),
    N_("{name} hit the target exactly!"),
    N_("Over the target ({total}): the play pile is discarded."),
    N_("Three 0s in a row turn over ({cards}): total {total}."),
    N_("Foul by {name}: {what}."),
    N_("{name} showed a 3/3 set ({cards}): right."),
    N_("{name} showed a 3/3 set ({cards}): wrong."),
    N_("{name} showed a Σ set ({numbers}): right."),
    N_("{name} showed a Σ set ({numbers}): wrong."),
    N_("The draw pile is empty: final lap, one more turn each."),
    N_("The draw pile is empty: the game ends with this turn."),
    N_("Turn limit reached: final lap, one more turn each."),
    N_("{name} passed."),
    N_("Game over. Points: {scores}. Winner: {winners}."),
    N_("Add double-sided cards to a pile whose total must land on exactly 20; every number "
       "has a special action, fouls reward the others."),
    N_("Something went wrong ({code})."),
    N_("random bot (plays any legal move)"),
    N_("heuristic bot (fast, rule of thumb)"),
    N_("ismcts bot (searches, strong)"),
    N_("pimc bot (searches, strong)"),
    N_("a person (invite by link)"),
    N_("strength"),
    N_("{level} ({seconds} s per move)"),
    N_("Seat {seat}"),
    N_("Loading…"),
    N_("Game"),
    N_("Players"),
    N_("Time per move"),
    N_("no limit"),
    N_("{seconds} s"),
    N_("Offer the hint button at this table"),
    N_("New table"),
    N_("Seats"),
    N_("Rules options"),
    N_("Create table"),
    N_("Open tables"),
    N_("Link for seat {seat}"),
    N_("Copied"),
    N_("Copy"),
    N_("Sit down here"),
    N_("Your table is ready"),
    N_("Send each person the link of their seat; whoever has a link plays that seat."),
    N_("Watch link"),
    N_("Watchers see what every player may see, no hidden card."),
    N_("The server did not answer."),
    N_("No open table right now."),
    N_("{players} players"),
    N_("move {move}"),
    N_("person (here)"),
    N_("person (away)"),
    N_("Watch"),
    N_("(you)"),
    N_("Open a record file"),
    N_("Replay"),
    N_("all hands open"),
    N_("as a watcher"),
    N_("from seat {seat}"),
    N_("The deal before the first move."),
    N_("Move {n}: {name} plays {move}."),
    N_("Move {n}: {name} moves."),
    N_("View"),
    N_("Replay controls"),
    N_("first position"),
    N_("one move back"),
    N_("position in the game"),
    N_("one move forward"),
    N_("last position"),
    N_("Position {index} of {count}"),
    N_("Game over"),
    N_("Log"),
    N_("The connection was lost; connecting again…"),
    N_("Thinking about a hint…"),
    N_("Hint: {move} (estimated chance to win: {chance} %)"),
    N_("Play it"),
    N_("Connecting…"),
    N_("The game is over."),
    N_("A bot plays your seat while you are away."),
    N_("Your turn."),
    N_("{name} is to move."),
    N_("no time limit"),
    N_("{seconds} s left for this move"),
    N_("person (a bot stands in)"),
    N_("Play again"),
    N_("Replay this game"),
    N_("Download the record"),
    N_("Back to the lobby"),
    N_("Invite the other players"),
    N_("Take my seat back"),
    N_("Let a bot play for me"),
    N_("Hint"),
    N_("You are watching."),
    N_("open to anyone in the lobby"),
    N_("open in the lobby: the first person to take it gets its link"),
    N_("free seat"),
    N_("Take a seat"),
    # @generated-page-messages-end
)

def _page_plurals() -> None:
    """The page's plural messages, for the extractor only (never called: the page picks
    the form itself, see ``static/js/i18n.js``)."""
    # @generated-page-plurals-start
    ngettext("{n} card left to deal",
             "{n} cards left to deal", 1)
    ngettext("{n} card captured",
             "{n} cards captured", 1)
    ngettext("{n} spade",
             "{n} spades", 1)
    ngettext("{n} sweep",
             "{n} sweeps", 1)
    ngettext("{n} card",
             "{n} cards", 1)
    ngettext("{n} point",
             "{n} points", 1)
    ngettext("Draw pile: {n} card",
             "Draw pile: {n} cards", 1)
    ngettext("Discard pile: {n} card",
             "Discard pile: {n} cards", 1)
    ngettext("{name} gives up a chip ({chips} chip left).",
             "{name} gives up a chip ({chips} chips left).", 1)
    ngettext("Game over: {names} loses.",
             "Game over: {names} lose.", 1)
    ngettext("{n} chip",
             "{n} chips", 1)
    ngettext("{n} zero in a row",
             "{n} zeros in a row", 1)
    ngettext("{n} foul",
             "{n} fouls", 1)
    ngettext("{name} had no personal card left and drew {count} card.",
             "{name} had no personal card left and drew {count} cards.", 1)
    ngettext("All allowed moves ({n})",
             "All allowed moves ({n})", 1)
    # @generated-page-plurals-end


OPTION_HELP: Final[dict[str, dict[str, str]]] = {
    "krass-kariert": {
        "five_player_chips": N_("Chips each player starts with in a five-player game."),
        "x_with_x": N_("Whether two X cards may stand together in one combination."),
        "voluntary_concession": N_("Offer the concession to a follower without reserve "
                                   "cards even when they could still play."),
        "next_leader_fallback": N_("Who leads when the round's winner and the next "
                                   "highest player have no cards: the next highest "
                                   "player, or the winner's right neighbour."),
    },
    "casino": {
        "partnerships": N_("With four players: seats 0 and 2 play against 1 and 3, "
                           "pooling captures and points."),
        "face_cards_capture_all": N_("A jack, queen or king takes every loose card of "
                                     "its rank at once instead of one."),
        "trail_ban": N_("When a build's owner may not trail: on their next turn while the "
                        "build is unchanged, or as long as they own a build."),
        "trail_when_capture_possible": N_("Whether a card that could capture may be "
                                          "trailed."),
        "owner_keeps_capture_card": N_("Whether a build's owner must keep a card of its "
                                       "value until the build is taken."),
        "sweeps": N_("Whether clearing the table with a capture scores a point."),
        "count_out": N_("Count points item by item after a pack; the first side to reach "
                        "21 wins."),
    },
    "krumme20": {
        "deck": N_("Deck: every pair of 0-5 with doubles four times (pairs), or the same "
                   "number on both sides (doubles)."),
        "target": N_("The total that scores (the base game used 10)."),
        "play_flips": N_("A played or thrown card is turned over and counts by its former "
                         "down side."),
        "second_five": N_("When the second card on 15 is allowed: after any play (any) or "
                          "only after a 5 (after_five)."),
        "foul_keeps_action": N_("Whether a play that is a foul still grants its special "
                                "action."),
        "peek_own": N_("Whether players know the down sides of their own personal cards."),
        "draw_top_visible": N_("Whether the up side of the draw pile's top card is "
                               "visible."),
        "end": N_("When the draw pile runs out: one more turn each (final_lap) or the "
                  "game ends with that turn (immediate)."),
        "turn_limit": N_("After this many turns the final lap begins (0: no limit)."),
        "sitout_foul_reward": N_("Whether a player who sits out still gets the reward of "
                                 "another player's foul (the rule sheet: no)."),
    },
}
"""One sentence per rules option (English message ids; the page translates them)."""


def reason_templates() -> dict[str, str]:
    """Every reason code the page may meet and its English template (the message id)."""
    return {**all_reasons(), **SERVER_REASONS, **WEB_REASONS}


@functools.cache
def catalogue(language: str) -> JSON:
    """The catalogue of ``language`` as the page reads it: ``messages`` (id -> text),
    ``plurals`` (singular id -> forms) and ``reasons`` (code -> English template).

    An untranslated message maps to itself; the plural rule of both languages is
    "one" for 1, else "other".
    """
    if language not in LANGUAGES:
        raise ValueError(language)
    from babel.messages.pofile import read_po

    with catalogue_path(language).open("rb") as handle:
        catalog = read_po(handle, locale=language)
    messages: dict[str, str] = {}
    plurals: dict[str, list[str]] = {}
    for message in catalog:
        if not message.id:
            continue
        if isinstance(message.id, str):
            messages[message.id] = str(message.string or message.id)
        else:
            ids = [str(i) for i in message.id]
            forms = [str(f) for f in message.string] if message.string else []
            plurals[ids[0]] = forms if forms and all(forms) else ids
    return {"v": PROTOCOL_VERSION, "language": language, "messages": messages,
            "plurals": plurals, "reasons": reason_templates()}


# ---------------------------------------------------------------- requests
class WebCreate(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``POST /api/web/tables``: the table as ``POST /api/tables`` takes it (its ``hints``
    says whether the hint button is offered; ``hints`` here, when given, overrides it)."""

    table: CreateTable
    hints: bool | None = None


class ClaimRequest(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``POST /api/web/tables/{id}/claim``: take an open seat (``seat``, or any)."""

    seat: int | None = None


class TokenRequest(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """A request made with a link's token (``hint``)."""

    token: str


class ExplainRequest(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``POST /api/web/explain``: the move a player tried, in the game's notation."""

    token: str
    text: str


async def _body(request: Request) -> bytes:
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY_BYTES:
            raise refuse("lobby.too_large", limit=MAX_BODY_BYTES)
    return body


def _decode(body: bytes, kind: type[Any]) -> Any:
    try:
        return msgspec.json.decode(body, type=kind, strict=True)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise refuse("lobby.bad_request", detail=str(exc)[:160]) from None
    except RecursionError:
        raise refuse("lobby.bad_request", detail="nested too deeply") from None


def _error(error: KartentischError, status: int = 400) -> JSONResponse:
    status = {"lobby.unknown_table": 404, "lobby.not_finished": 409,
              "lobby.too_large": 413, "web.hints_off": 403,
              "web.no_open_seat": 409}.get(error.code, status)
    return JSONResponse(error_message(error), status_code=status)


# ---------------------------------------------------------------- hints
def win_chance(game: Game[Any, Any, Any], mean: float) -> float:
    """A mean return turned into a chance of winning, from the game's usual outcomes: a
    loser gets ``min_utility``, a winner the share of a lone winner (or, in Krass Kariert,
    of everybody beside one loser). An estimate: shared wins count in between."""
    players = game.players
    name = game.spec.name
    if name == "krumme20":
        low, high = 0.0, 1.0
    elif name == "krass-kariert":
        low, high = -1.0, 1.0 / (players - 1)
    else:  # casino: a lone winner (or a partnership) gets what the others lose
        sides = 2 if getattr(game.options, "partnerships", False) else players
        low, high = -1.0, float(sides - 1) if sides > 2 else 1.0
    if high <= low:
        return 0.5
    return min(1.0, max(0.0, (mean - low) / (high - low)))


def compute_hint(game_name: str, players: int, options: str, seed: int, observation: Any,
                 legal: Sequence[Any], seconds: float) -> tuple[int, float | None, int]:
    """The ismcts bot's move for ``observation`` (its id), its estimated chance of winning
    and the number of searched worlds; runs in a bot worker or a thread."""
    from kartentisch.bots import make_bot
    from kartentisch.bots.ismcts import ISMCTSBot

    game = load_game(game_name, players, json.loads(options))
    bot = make_bot("ismcts", game, seed, seconds=seconds, iterations=1_000_000)
    assert isinstance(bot, ISMCTSBot)
    action = bot.act(observation, legal)
    aid = game.action_to_id(action)
    root = bot.search(observation) if bot.last_iterations == 0 else None
    if root is None:
        # act() searched: search again briefly for the statistics (the tree is not kept)
        bot.seconds = min(seconds, 0.3)
        root = bot.search(observation)
    child = root.children.get(aid)
    if child is not None and child.visits:
        mean = child.total / child.visits
    else:
        visits = sum(c.visits for c in root.children.values())
        mean = (sum(c.total for c in root.children.values()) / visits) if visits else math.nan
    chance = None if math.isnan(mean) else win_chance(game, mean)
    return aid, chance, bot.last_iterations


# ---------------------------------------------------------------- replays
def open_view(state: State[Any, Any]) -> JSON:
    """The spectator's observation with every hidden card shown (a finished game's replay
    "with all hands open")."""
    obs: JSON = state.observation(None).to_json()
    full = state.to_json()
    game = obs.get("game")
    if game == "krass-kariert":
        obs["public_hands"] = [[c["card"] for c in hand] for hand in full["hands"]]
    elif game == "casino":
        obs["hands"] = [list(hand) for hand in full["hands"]]
    elif game == "krumme20":
        for key, piles in (("hands", True), ("scores", True), ("ablage", False),
                           ("abwurf", False), ("draw_pile", False)):
            mine = obs[key] if piles else [obs[key]]
            theirs = full[key] if piles else [full[key]]
            for pile, full_pile in zip(mine, theirs, strict=True):
                for card, full_card in zip(pile, full_pile, strict=True):
                    up, down = str(full_card["card"]).split("/")
                    card["up"], card["down"] = int(up), int(down)
    obs["open"] = True
    return obs


def parse_view(text: str | None, players: int) -> Seat | str | None:
    """``all``, ``watch`` (a watcher: None) or a seat number."""
    if text in (None, "", "watch"):
        return None
    if text == "all":
        return "all"
    assert text is not None
    if text.isdigit() and int(text) < players:
        return int(text)
    raise _refuse_web("web.bad_view", last=players - 1, value=text[:20])


def replay_frames(record: GameRecord, view: Seat | str | None) -> JSON:
    """Every position of ``record``'s game as ``view`` sees it, with the moves between.

    A frame holds the observation, the events since the previous frame and, for the seat
    that moved (or for every move with all hands open), the move's notation.
    """
    game = record.new_game()
    state: State[Any, Any] = game.new_initial_state(record.seed)
    viewer: Seat | None = None if view == "all" or view is None else int(view)

    def frame(move: int, seat: Seat | None, text: str | None, cursor: int) -> JSON:
        obs = open_view(state) if view == "all" else state.observation(viewer).to_json()
        shown = text if text is not None and (view == "all" or seat == viewer) else None
        events = [e.to_json() for e in state.events_for(
            None if view == "all" else viewer, cursor)]
        return {"move": move, "seat": seat, "text": shown, "observation": obs,
                "events": events}

    frames = [frame(0, None, None, 0)]
    for index, text in enumerate(record.actions):
        cursor = len(state.events)
        seat = state.current_player
        try:
            state.apply(game.parse_action(text, state))
        except KartentischError as error:
            raise SERVER_REASONS.error(
                ProtocolError, "lobby.bad_request",
                detail=f"move {index + 1} ({text}) does not replay: {error.code}") from error
        frames.append(frame(index + 1, seat, text, cursor))
    return {"v": PROTOCOL_VERSION, "game": record.game, "players": record.players,
            "options": record.options, "seats": record.seats, "view": view,
            "returns": state.returns() if state.is_terminal() else None,
            "reveal": state.reveal() if state.is_terminal() else None, "frames": frames}


# ---------------------------------------------------------------- routes
def web_routes(hub: Hub) -> list[Route]:
    """The routes above, on ``hub``'s tables (``create_app`` adds them)."""
    async def seat_of(token: str) -> tuple[LiveTable, Seat | None]:
        found = await asyncio.to_thread(hub.storage.resolve_link, token)
        table = None if found is None else await hub.table(found[0])
        if table is None or found is None:
            raise refuse("session.unknown_link")
        return table, found[1]

    async def catalogue_route(request: Request) -> Response:
        language = request.query_params.get("lang", "en")
        if language not in LANGUAGES:
            language = "en"
        data = await asyncio.to_thread(catalogue, language)
        return JSONResponse(data, headers={"Cache-Control": "max-age=300"})

    async def games_route(_request: Request) -> Response:
        return JSONResponse({"v": PROTOCOL_VERSION, "option_help": OPTION_HELP,
                             "hint_seconds": HINT_SECONDS})

    async def create_route(request: Request) -> Response:
        try:
            wanted: WebCreate = _decode(await _body(request), WebCreate)
            table = wanted.table
            if wanted.hints is not None:
                table = msgspec.structs.replace(table, hints=wanted.hints)
            answer = await hub.create(table, str(request.base_url))
        except KartentischError as error:
            return _error(error)
        return JSONResponse(answer, status_code=201)

    async def settings_route(request: Request) -> Response:
        table_id = request.path_params["table_id"]
        table = await hub.table(table_id)
        if table is None:
            return _error(refuse("lobby.unknown_table", table=table_id))
        return JSONResponse({"v": PROTOCOL_VERSION, "table": table_id,
                             "hints": table.row.hints})

    async def lobby_route(_request: Request) -> Response:
        tables = await hub.summaries()
        open_seats = await asyncio.to_thread(hub.storage.open_seats,
                                             [t["id"] for t in tables])
        for table in tables:
            mine = open_seats.get(table["id"], [])
            table["open_seats"] = mine
            for seat in table["seats"]:
                seat["open"] = seat["seat"] in mine
        return JSONResponse({"v": PROTOCOL_VERSION, "tables": tables})

    async def claim_route(request: Request) -> Response:
        table_id = request.path_params["table_id"]
        try:
            body = await _body(request)
            wanted: ClaimRequest = _decode(body or b"{}", ClaimRequest)
            table = await hub.table(table_id)
            if table is None:
                raise refuse("lobby.unknown_table", table=table_id)
            if table.finished or not table.row.listed:
                raise _refuse_web("web.no_open_seat", table=table_id)
            token = new_token()
            seat = await asyncio.to_thread(hub.storage.claim_seat, table_id, token,
                                           wanted.seat)
            if seat is None:
                raise _refuse_web("web.no_open_seat", table=table_id)
        except KartentischError as error:
            return _error(error)
        table.row.seats[seat].open = False
        table.tell_all({"v": PROTOCOL_VERSION, "type": "seats", "table": table.id,
                        "seats": table.seats_json()})
        return JSONResponse({"v": PROTOCOL_VERSION, "table": table_id, "seat": seat,
                             "token": token, "link": f"{request.base_url}#seat={token}"},
                            status_code=201)

    async def explain_route(request: Request) -> Response:
        try:
            wanted: ExplainRequest = _decode(await _body(request), ExplainRequest)
            table, seat = await seat_of(wanted.token)
            if seat is None:
                raise refuse("move.watcher")
            state, game = table.state, table.game
            try:
                state.check_actor(seat)
                action = game.parse_action(wanted.text, state)
                aid = game.action_to_id(action)
                if not state.is_legal_id(aid):
                    raise state.why_illegal(action)
            except KartentischError as error:
                return JSONResponse(error_message(error, move=table.moves))
        except KartentischError as error:
            return _error(error)
        return JSONResponse({"v": PROTOCOL_VERSION, "type": "legal", "id": aid,
                             "text": game.format_action(action, state), "move": table.moves})

    async def hint_route(request: Request) -> Response:
        try:
            wanted: TokenRequest = _decode(await _body(request), TokenRequest)
            table, seat = await seat_of(wanted.token)
            if not table.row.hints:
                raise _refuse_web("web.hints_off")
            if seat is None or not table.acting(seat):
                raise _refuse_web("web.hint_not_your_turn")
            state = table.state
            moves = table.moves
            observation = state.observation(seat)
            legal = state.legal_actions()
            seed = derive_seed(table.row.seed, "hint", seat, moves, int(time.time()))
            aid, chance, worlds = await hub.pool.run(
                compute_hint, table.row.game, table.row.players, table.options_text, seed,
                observation, legal, HINT_SECONDS)
        except KartentischError as error:
            return _error(error)
        text = table.game.format_action(table.game.action_from_id(aid), state)
        return JSONResponse({"v": PROTOCOL_VERSION, "move": moves, "id": aid, "text": text,
                             "win": chance, "worlds": worlds})

    async def replay_table_route(request: Request) -> Response:
        try:
            record = await hub.record(request.path_params["table_id"])
            view = parse_view(request.query_params.get("view"), record.players)
            data = await asyncio.to_thread(replay_frames, record, view)
        except KartentischError as error:
            return _error(error)
        return JSONResponse(data)

    async def replay_record_route(request: Request) -> Response:
        try:
            body = await _body(request)
            try:
                raw = json.loads(body)
            except (ValueError, RecursionError):
                raise refuse("lobby.bad_request", detail="the record is not JSON") from None
            record = GameRecord.from_json(raw)
            view = parse_view(request.query_params.get("view"), record.players)
            data = await asyncio.to_thread(replay_frames, record, view)
        except KartentischError as error:
            return _error(error)
        return JSONResponse(data)

    return [
        Route("/api/web/catalogue", catalogue_route),
        Route("/api/web/games", games_route),
        Route("/api/web/tables", create_route, methods=["POST"]),
        Route("/api/web/tables/{table_id}", settings_route),
        Route("/api/web/tables/{table_id}/claim", claim_route, methods=["POST"]),
        Route("/api/web/lobby", lobby_route),
        Route("/api/web/explain", explain_route, methods=["POST"]),
        Route("/api/web/hint", hint_route, methods=["POST"]),
        Route("/api/web/replay/{table_id}", replay_table_route),
        Route("/api/web/replay", replay_record_route, methods=["POST"]),
    ]


__all__ = ["OPTION_HELP", "PAGE_MESSAGES", "WEB_REASONS", "catalogue",
           "open_view", "replay_frames", "web_routes"]
