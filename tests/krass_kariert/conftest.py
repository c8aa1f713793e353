"""Helpers for the Krass Kariert tests: building positions by hand and an independent
reference for the legal moves (written from the rules page, not from the engine)."""

from __future__ import annotations

import itertools
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any

import pytest

from kartentisch.games.krass_kariert import KKState, KrassKariert
from kartentisch.games.krass_kariert.actions import format_action
from kartentisch.games.krass_kariert.cards import DECK_COUNTS, NACHZIEH, card_name, parse_card


def cards_of(text: str) -> list[int]:
    """``"8 12 X N"`` -> card ints."""
    return [parse_card(t) for t in text.split()]


def make_doc(
    hands: Sequence[str],
    *,
    reserves: Sequence[str] | None = None,
    leader: int = 0,
    options: Mapping[str, Any] | None = None,
    chips: Sequence[int] | None = None,
    draw_top: str = "",
    seed: int = 0,
    deal: int = 0,
) -> dict[str, Any]:
    """A position document at the start of a round: ``hands[s]`` and ``reserves[s]`` as card
    names, ``leader`` to lead. Cards not placed go to the draw pile (``draw_top`` on top,
    Nachzieh cards next so that none counts as already resolved) and then to the Ablagestapel.
    Players with an empty hand are out of the deal."""
    n = len(hands)
    game = KrassKariert(n, dict(options or {}))
    hand_cards = [cards_of(h) for h in hands]
    reserve_cards = [cards_of(r) for r in (reserves or [""] * n)]
    pile = cards_of(draw_top)
    used = Counter(pile)
    for cards in hand_cards + reserve_cards:
        used.update(cards)
    if used - DECK_COUNTS:
        raise ValueError(f"too many copies of {sorted((used - DECK_COUNTS).elements())}")
    left = sorted((DECK_COUNTS - used).elements(), key=lambda c: (c != NACHZIEH, c))
    size = 54 - n * (game.hand_size + 2)
    take = size - len(pile)
    pile += left[:take]
    discard = left[take:]
    in_deal = [bool(h) for h in hand_cards]
    order = [s for s in ((leader + i) % n for i in range(n)) if in_deal[s]]
    return {
        "format": "kartentisch-position/1",
        "game": "krass-kariert",
        "players": n,
        "options": dict(options or {}),
        "seed": seed,
        "deal": deal,
        "rounds": 0,
        "phase": "play",
        "to_move": leader,
        "chips": list(chips) if chips is not None else [game.starting_chips] * n,
        "hands": [
            [{"position": i + 1, "card": card_name(c), "public": False} for i, c in enumerate(h)]
            for h in hand_cards
        ],
        "reserves": [[card_name(c) for c in r] for r in reserve_cards],
        "draw_pile": [card_name(c) for c in pile],
        "ablagestapel": [card_name(c) for c in discard],
        "in_deal": in_deal,
        "round": {"leader": leader, "order": order, "acts_done": 0, "acts": []},
        "drawing": None,
        "losers": [],
    }


def build(hands: Sequence[str], **kwargs: Any) -> KKState:
    """The state of :func:`make_doc`'s document, read through the position reader."""
    doc = make_doc(hands, **kwargs)
    game = KrassKariert(doc["players"], doc["options"])
    return game.state_from_json(doc)


def play(state: KKState, *moves: str) -> KKState:
    """Apply moves in notation for whoever is to move; returns the state."""
    for text in moves:
        state.apply(state.game.parse_action(text, state))
    return state


def hand_text(state: KKState, seat: int) -> str:
    return " ".join(card_name(c) for c in state.hands[seat])


# ----------------------------------------------------------------------- reference rules
_KINDS = ("single", "run2", "pair", "run3", "triple")


def reference_rank(values: Sequence[int]) -> tuple[int, int] | None:
    """(kind index, deciding number) of number values played together, from the rules page."""
    v = sorted(values)
    if len(v) == 1:
        return 0, v[0]
    if len(v) == 2:
        if v[0] == v[1]:
            return 2, v[0]
        return (1, v[1]) if v[1] == v[0] + 1 else None
    if len(v) == 3:
        if v[0] == v[1] == v[2]:
            return 4, v[0]
        return (3, v[2]) if v[1] == v[0] + 1 and v[2] == v[1] + 1 else None
    return None


def reference_legal(state: KKState) -> set[str]:
    """The legal moves in notation, enumerated naively from the rules page."""
    if state.is_terminal():
        return set()
    seat = state.current_player
    hand = state.hands[seat]
    n = len(hand)
    if state.phase == "draw":
        return {f"@{p}" for p in range(1, n + 2)}
    x_with_x = state.game.options.x_with_x
    best: tuple[int, int] | None = None
    for act in state.round_acts:
        if act.kind == "combination":
            numbers = [c for c in act.cards if c != 13] + list(act.x_values)
            best = reference_rank(numbers)
    moves: set[str] = set()
    for start in range(n):
        for length in (1, 2, 3):
            window = hand[start : start + length]
            if len(window) < length:
                break
            positions = str(start + 1) + (f"-{start + length}" if length > 1 else "")
            if any(c in (14, 15) for c in window):
                if length == 1:
                    moves.add(positions)  # Stopp / Nachzieh: alone, always
                continue
            n_x = window.count(13)
            if n_x > 1 and not x_with_x:
                continue
            numbers = [c for c in window if c != 13]
            for declared in itertools.combinations_with_replacement(range(1, 13), n_x):
                rank = reference_rank(numbers + list(declared))
                if rank is not None and (best is None or rank > best):
                    moves.add(positions + "".join(f"x{d}" for d in declared))
    if state.act_index > 0:
        reserves = state.reserves[seat]
        for r, card in enumerate(reserves):
            if r == 1 and card == reserves[0]:
                continue
            moves.update(f"r{r + 1}@{p}" for p in range(1, n + 2))
        if not reserves and (state.game.options.voluntary_concession or not moves):
            moves.add("concede")
    return moves


def engine_legal(state: KKState) -> set[str]:
    return {format_action(a) for a in state.legal_actions()}


@pytest.fixture(scope="session")
def kk() -> ModuleType:
    """These helpers (``kk.build``, ``kk.play``, ``kk.reference_legal``, ...)."""
    return sys.modules[__name__]
