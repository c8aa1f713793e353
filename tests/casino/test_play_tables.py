"""The tables the Casino play and pack cycle read (issue 14) agree with what they stand for.

``CasinoState._apply`` decodes an id through :data:`~kartentisch.games.casino.state._DECODE`
and :data:`~kartentisch.games.casino.state._BUILD_CODE` instead of building the action, takes
the loose cards used from :data:`~kartentisch.games.casino.state._CARDS_OF`, and deals by
precomputed picks (``_DEALS``, ``_STARTS``); ``score_pack`` counts the items by masks. Each
is compared here with the general code it replaces: ``action_from_id`` on ids of every
segment, ``cards_of`` on masks, dealing card by card with ``pop``, and the scoring by per-card
loops, so a change to the id space, the deal or the scoring cannot leave a table behind.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from kartentisch.games.casino import Casino
from kartentisch.games.casino import actions as acts
from kartentisch.games.casino import state as st
from kartentisch.games.casino.cards import (
    BIG_CASINO,
    LITTLE_CASINO,
    SPADES,
    parse_card,
    rank_of,
    suit_of,
)
from kartentisch.games.casino.log import BUILD, CAPTURE, DEAL, TRAIL, cards_of, header
from kartentisch.games.casino.scoring import SCORE_ITEMS, score_pack, score_two


def _decode(aid: int) -> tuple[int, int, int, tuple[int, int, bool]]:
    """What ``_apply`` reads from an id: card, code, loose mask used, build code row."""
    base, card, code, shift, high = st._DECODE[st.segment_of(aid) + 1]
    packed = (aid - base) << shift
    return card, code, packed + (packed & high), st._BUILD_CODE[code]


def _ids_of_segment(k: int, rng: random.Random) -> list[int]:
    start, end = acts.SEG_STARTS[k], acts.SEG_STARTS[k + 1]
    ids = {start, end - 1, (start + end) // 2}
    ids.update(rng.randrange(start, end) for _ in range(3))
    return sorted(ids)


def test_decode_rows_match_action_from_id_on_every_segment() -> None:
    rng = random.Random(14)
    checked = 0
    for k in range(len(acts.SEG_STARTS) - 1):
        for aid in _ids_of_segment(k, rng):
            action = acts.action_from_id(aid)
            card, code, used, (value, raised, merged) = _decode(aid)
            assert card == action.card, aid
            assert code == acts.action_code(action), aid
            if type(action) is acts.Trail:
                assert aid in st._TRAIL_CARD and st._TRAIL_CARD[aid] == card
                continue
            assert aid not in st._TRAIL_CARD
            assert used == acts.loose_mask(action.loose), aid
            if type(action) is acts.Build:
                assert raised == action.raised and merged == action.merged, aid
                assert value + (st.VALUES[card] if raised else 0) == action.value, aid
            checked += 1
    assert checked > 3000


def test_cards_of_masks() -> None:
    rng = random.Random(3)
    masks = [*st._CARDS_OF, *(rng.getrandbits(52) | 1 << rng.randrange(52) for _ in range(500))]
    masks += [sum(1 << c for c in rng.sample(range(52), n)) for n in range(3, 9) for _ in range(50)]
    for mask in masks:
        expected = cards_of(mask)
        got = st._CARDS_OF[mask] if mask in st._CARDS_OF else st._cards_of_many(mask)
        assert got == expected, bin(mask)
    assert len(st._CARDS_OF) == 1 + 52 + 52 * 51 // 2


def _deal_by_pops(deck: list[int], hands: list[list[int]], dealer: int) -> list[int]:
    """A later deal as the rules describe it: two cards at a time, from left of the dealer."""
    n = len(hands)
    order = [(dealer + 1 + i) % n for i in range(n)]
    for _ in range(2):
        for s in order:
            hands[s].extend((deck.pop(), deck.pop()))
    return order


def _start_by_pops(deck: list[int], n: int, dealer: int) -> tuple[list[list[int]], list[int]]:
    """A pack's first deal: non-dealers, the table, the dealer; two cards each, twice."""
    hands: list[list[int]] = [[] for _ in range(n)]
    order = [(dealer + 1 + i) % n for i in range(n - 1)]
    table: list[int] = []
    for _ in range(2):
        for s in order:
            hands[s].extend((deck.pop(), deck.pop()))
        table.extend((deck.pop(), deck.pop()))
        hands[dealer].extend((deck.pop(), deck.pop()))
    return hands, table


def test_deal_tables_deal_as_the_rules_say() -> None:
    rng = random.Random(5)
    for n in range(2, st._MAX_PLAYERS + 1):
        for dealer in range(n):
            deck = list(range(52))
            rng.shuffle(deck)
            table_pick, picks, plan = st._STARTS[n][dealer]
            ref_deck = deck.copy()
            hands, table = _start_by_pops(ref_deck, n, dealer)
            assert [list(p(deck)) for p in picks] == hands
            assert list(table_pick(deck)) == table
            assert len(ref_deck) == len(deck) - 4 * (n + 1)
            assert [s for s, _ in plan] == [*((dealer + 1 + i) % n for i in range(n - 1)), dealer]
            assert all(word == header(DEAL, s, 52 - 4 * (n + 1)) for s, word in plan)
            if 4 * n > len(ref_deck):
                continue
            deck = ref_deck
            ref_hands: list[list[int]] = [[] for _ in range(n)]
            order = _deal_by_pops(deck.copy(), ref_hands, dealer)
            later = st._DEALS[n][dealer]
            assert [s for s, _, _ in later] == order
            for s, pick, word in later:
                assert list(pick(deck)) == ref_hands[s]
                assert word == header(DEAL, s, 0)


def test_next_seat_and_log_seat_tables() -> None:
    for n in range(1, st._MAX_PLAYERS + 1):
        assert st._NEXT[n] == tuple((s + 1) % n for s in range(n))
    for s in range(st._MAX_PLAYERS):
        assert st._TRAIL_SEAT[s] == header(TRAIL, s, 0)
        assert st._CAPTURE_SEAT[s] == header(CAPTURE, s, 0)
        assert st._BUILD_SEAT[s] == header(BUILD, s, 0)


def _score_by_loops(captured: Sequence[Sequence[int]], sweeps: Sequence[int], sides: int,
                    side_of: Callable[[int], int]) -> dict[str, list[int]]:
    """The pack's items counted card by card (the scoring before masks)."""
    items = {k: [0] * sides for k in (*SCORE_ITEMS, "total")}
    cards = [0] * sides
    spades = [0] * sides
    for seat, pile in enumerate(captured):
        side = side_of(seat)
        for c in pile:
            cards[side] += 1
            spades[side] += suit_of(c) == SPADES
            items["big_casino"][side] += 2 * (c == BIG_CASINO)
            items["little_casino"][side] += c == LITTLE_CASINO
            items["aces"][side] += rank_of(c) == 1
        items["sweeps"][side] += sweeps[seat]
    for counts, key, points in ((cards, "cards", 3), (spades, "spades", 1)):
        top = max(counts)
        if counts.count(top) == 1:
            items[key][counts.index(top)] = points
    for s in range(sides):
        items["total"][s] = sum(items[k][s] for k in SCORE_ITEMS)
    return items


def test_score_pack_matches_counting_card_by_card() -> None:
    rng = random.Random(11)
    for trial in range(300):
        seats = rng.choice((2, 3, 4))
        partnered = seats == 4 and trial % 2 == 0
        sides = 2 if partnered else seats
        deck = list(range(52))
        rng.shuffle(deck)
        cuts = sorted(rng.sample(range(53), seats - 1))
        piles = [deck[a:b] for a, b in zip([0, *cuts], [*cuts, 52], strict=True)]
        sweeps = [rng.randrange(3) for _ in range(seats)]

        def side_of(s: int, partnered: bool = partnered) -> int:
            return s % 2 if partnered else s

        got = score_pack(piles, sweeps, sides, side_of)
        assert got == _score_by_loops(piles, sweeps, sides, side_of)
        assert list(got) == [*SCORE_ITEMS, "total"]


def test_played_games_log_what_the_moves_say() -> None:
    """Whole games through every kind of play: the log's plays read back as the ids played,
    the hands and table add up to the cards not yet taken, and the loose mask is kept."""
    for players in (2, 3, 4):
        game = Casino(players, {"sweeps": True})
        rng = random.Random(players)
        state = game.new_initial_state(90 + players)
        played: list[int] = []
        while not state.is_terminal():
            ids = state.legal_action_ids()
            aid = ids[rng.randrange(len(ids))]
            state.apply_id(aid)
            played.append(aid)
            assert state._lmask == sum(1 << c for c in state.loose)
            held = [c for h in state.hands for c in h] + state.loose + state.deck
            held += [c for v in state.builds for c in state.builds[v].cards]
            taken = [c for pile in state.captured for c in pile]
            if state.is_terminal():
                break
            assert sorted(held + taken) == list(range(52))
        assert state.history_ids() == played


def test_quick_rows_decode_their_ids() -> None:
    """Each row of ``_QUICK`` is its id decoded; every capture of at most one loose card is
    there, and so are the numerals' two-card captures and one-card builds that can add up."""
    for aid, (card, code, used, got, took) in st._QUICK.items():
        action = acts.action_from_id(aid)
        assert type(action) is not acts.Trail, aid
        assert (card, code) == (action.card, acts.action_code(action)), aid
        assert used == acts.loose_mask(action.loose) and got == action.loose, aid
        assert took == (card, *got)
        assert _decode(aid)[:3] == (card, code, used)
    singles = 0
    for k in range(len(acts.SEG_STARTS) - 1):
        code = acts.SEG_ROWS[k][2]
        if code in (acts.CODE_CAPTURE, acts.CODE_CAPTURE_BUILD):
            start, end = acts.SEG_STARTS[k], acts.SEG_STARTS[k + 1]
            base = acts.SEG_ROWS[k][0]
            for packed in (0, *(1 << b for b in range((end - base - 1).bit_length()))):
                if base + packed >= start:
                    assert base + packed in st._QUICK
                    singles += 1
    assert singles == 1756
    two = acts.action_id(acts.Capture(parse_card("9h"), (parse_card("4c"),
                                                             parse_card("5d"))))
    build = acts.action_id(acts.Build(parse_card("2h"), 7, (parse_card("5c"),)))
    assert two in st._QUICK and build in st._QUICK


def test_score_two_is_score_pack_of_two_seats() -> None:
    rng = random.Random(12)
    for _ in range(300):
        deck = list(range(52))
        rng.shuffle(deck)
        cut = rng.randrange(53)
        piles = [deck[:cut], deck[cut:]]
        sweeps = [rng.randrange(3), rng.randrange(3)]
        got = score_two(piles, sweeps)
        assert got == score_pack(piles, sweeps, 2, lambda s: s)
        assert list(got) == [*SCORE_ITEMS, "total"]
        assert got["sweeps"] is not sweeps


def test_partnership_games_score_their_packs() -> None:
    """Four players in partnerships (two sides, four piles) take the general scoring."""
    game = Casino(4, {"partnerships": True})
    rng = random.Random(4)
    state = game.new_initial_state(44)
    while not state.is_terminal():
        ids = state.legal_action_ids()
        state.apply_id(ids[rng.randrange(len(ids))])
    assert len(state.scores) == 2 and max(state.scores) >= 21
    for items in state.pack_results:
        assert sum(items["total"]) >= 11 - 3  # the cards' 3 may tie
