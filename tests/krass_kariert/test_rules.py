"""Krass Kariert rules, paragraph by paragraph (see docs/rules/krass-kariert.md)."""

from __future__ import annotations

from collections import Counter
from types import ModuleType

import pytest

from kartentisch.core.errors import IllegalActionError, InvalidOptionsError, InvalidSeedError
from kartentisch.core.protocol import TERMINAL
from kartentisch.core.rng import SEED_MAX, shuffled
from kartentisch.games.krass_kariert import KrassKariert, Play
from kartentisch.games.krass_kariert.cards import (
    DECK,
    DECK_COUNTS,
    NACHZIEH,
    PAIR,
    RUN2,
    RUN3,
    SINGLE,
    STOPP,
    TRIPLE,
    X,
    evaluate,
    strength,
)
from kartentisch.games.krass_kariert.state import shuffled_deck

# ----------------------------------------------------------------------------- material, deal


def test_deck_has_54_cards() -> None:
    assert sum(DECK_COUNTS.values()) == 54
    assert all(DECK_COUNTS[v] == 4 for v in range(1, 13))
    assert DECK_COUNTS[X] == DECK_COUNTS[NACHZIEH] == DECK_COUNTS[STOPP] == 2


@pytest.mark.parametrize(
    ("players", "hand", "pile", "chips"), [(3, 10, 18, 3), (4, 10, 6, 3), (5, 7, 9, 2)]
)
def test_deal_sizes_chips_and_first_leader(players: int, hand: int, pile: int, chips: int) -> None:
    s = KrassKariert(players).new_initial_state(seed=11)
    assert [len(h) for h in s.hands] == [hand] * players
    assert [len(r) for r in s.reserves] == [2] * players
    assert len(s.draw_pile) == pile
    assert s.chips == [chips] * players
    # The player left of the dealer (seat 0) leads the game's first round.
    assert s.current_player == 1 == s.leader
    assert s.participants == [(1 + i) % players for i in range(players)]
    everything = Counter(s.draw_pile)
    for h, r in zip(s.hands, s.reserves, strict=True):
        everything.update(h + r)
    assert everything == DECK_COUNTS
    assert all(not any(k) for k in s.known)  # dealt cards are nobody else's business


def test_five_player_chips_option() -> None:
    assert KrassKariert(5, {"five_player_chips": 3}).new_initial_state(1).chips == [3] * 5
    assert KrassKariert(5, {"five_player_chips": 2}).new_initial_state(1).chips == [2] * 5
    with pytest.raises(InvalidOptionsError, match="only applies to 5 players") as info:
        KrassKariert(4, {"five_player_chips": 3})
    assert info.value.code == "kk.five_player_chips"
    with pytest.raises(InvalidOptionsError, match="allowed: 2, 3"):
        KrassKariert(5, {"five_player_chips": 4})


@pytest.mark.parametrize("players", [2, 6, True, "4"])
def test_player_count_must_be_3_to_5(players: object) -> None:
    with pytest.raises(InvalidOptionsError, match="3 to 5 players"):
        KrassKariert(players)  # type: ignore[arg-type]


def test_unknown_and_bad_options_raise() -> None:
    with pytest.raises(InvalidOptionsError, match="unknown option 'jokers'"):
        KrassKariert(4, {"jokers": True})
    with pytest.raises(InvalidOptionsError, match="next_leader_fallback"):
        KrassKariert(4, {"next_leader_fallback": "left"})
    with pytest.raises(InvalidOptionsError, match="true or false"):
        KrassKariert(4, {"x_with_x": "maybe"})


def test_the_deal_is_the_core_shuffle_of_seed_and_deal_number() -> None:
    assert shuffled_deck(5, 2) == shuffled(DECK, 5, "krass-kariert", 2)
    assert shuffled_deck(SEED_MAX, 0) == shuffled(DECK, SEED_MAX, "krass-kariert", 0)


@pytest.mark.parametrize("seed", [-1, SEED_MAX + 1, 10**100, True, 1.5, "3", None])
def test_bad_seeds_are_refused(seed: object) -> None:
    with pytest.raises(InvalidSeedError) as info:
        KrassKariert(4).new_initial_state(seed)  # type: ignore[arg-type]
    assert info.value.code == "seed.invalid"


def test_shuffle_depends_on_seed_and_deal_only() -> None:
    assert shuffled_deck(5, 0) == shuffled_deck(5, 0)
    assert shuffled_deck(5, 0) != shuffled_deck(5, 1)
    assert shuffled_deck(5, 0) != shuffled_deck(6, 0)
    assert sorted(shuffled_deck(5, 3)) == sorted(DECK_COUNTS.elements())


def test_shuffle_is_uniform() -> None:
    """Every card value is equally likely at every position of a deal made with
    ``core.rng.shuffled`` (chi-square over 6000 deals).

    15 card values weighted by their counts, so 14 degrees of freedom: a correct shuffle
    exceeds the bound (near the 99.98th percentile) about twice in 10 000 runs; the seeds
    are fixed, so the test is repeatable.
    """
    deals = 6000
    total = sum(DECK_COUNTS.values())
    for position in (0, 27, 53):
        seen = Counter(shuffled_deck(seed, 0)[position] for seed in range(deals))
        chi2 = sum(
            (seen[card] - deals * count / total) ** 2 / (deals * count / total)
            for card, count in DECK_COUNTS.items()
        )
        assert chi2 < 40.0, (position, chi2, seen)


def test_hand_keeps_dealt_order() -> None:
    s = KrassKariert(4).new_initial_state(seed=3)
    assert s.hands[0] == shuffled_deck(3, 0)[:10]
    assert s.reserves[0] == shuffled_deck(3, 0)[40:42]


# ----------------------------------------------------------------------------- combinations


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ((7,), strength(SINGLE, 7)),
        ((5, 4), strength(RUN2, 5)),
        ((9, 9), strength(PAIR, 9)),
        ((8, 10, 9), strength(RUN3, 10)),
        ((9, 8, 10), strength(RUN3, 10)),
        ((3, 3, 3), strength(TRIPLE, 3)),
        ((12, 1), -1),  # runs do not wrap
        ((11, 12, 1), -1),
        ((5, 7), -1),
        ((5, 5, 6), -1),
        ((4, 6, 8), -1),
    ],
)
def test_evaluate(values: tuple[int, ...], expected: int) -> None:
    assert evaluate(values) == expected


def test_kind_order_and_equal_does_not_beat() -> None:
    order = [
        evaluate((12,)),
        evaluate((1, 2)),
        evaluate((12, 11)),
        evaluate((1, 1)),
        evaluate((12, 12)),
        evaluate((1, 2, 3)),
        evaluate((10, 11, 12)),
        evaluate((1, 1, 1)),
    ]
    assert order == sorted(order) and len(set(order)) == len(order)


@pytest.mark.parametrize(
    ("hands", "first", "equal"),
    [
        (["8 1", "8 2", "3 4", "6 7"], "1", "1"),  # single 8 on single 8
        (["4 5", "5 4", "3 3", "6 7"], "1-2", "1-2"),  # 2-run 4-5 on 2-run 5-4
        (["9 9 1", "9 9 2", "3 4", "6 7"], "1-2", "1-2"),  # pair on pair
        (["X 5 1", "6 4 5", "3 3", "6 7"], "1-2x6", "1-3"),  # 2-run 6 on ... 3-run beats
    ],
)
def test_equal_does_not_beat(kk: ModuleType, hands: list[str], first: str, equal: str) -> None:
    s = kk.build(hands, leader=0)
    kk.play(s, first)
    legal = kk.engine_legal(s)
    if first == "1-2x6":
        assert "1-3" in legal and "2-3" not in legal  # 4-5 is lower than 5-6
    else:
        assert equal not in legal
        with pytest.raises(IllegalActionError, match="does not beat") as info:
            kk.play(s, equal)
        assert info.value.code == "kk.does_not_beat"
        assert info.value.params["combination"] == info.value.params["best"]


def test_window_must_be_adjacent_in_hand(kk: ModuleType) -> None:
    s = kk.build(["5 9 5 1", "2 3", "4 4", "6 7"], leader=0)
    legal = kk.engine_legal(s)
    assert "1-3" not in legal  # 5 9 5: the 5s are not side by side
    assert {"1", "2", "3", "4"} <= legal


def test_leader_may_play_anything_but_no_reserve(kk: ModuleType) -> None:
    s = kk.build(["8 X 1", "2 3", "4 4", "6 7"], reserves=["12 11", "", "", ""], leader=0)
    legal = kk.engine_legal(s)
    assert not any(m.startswith("r") or m == "concede" for m in legal)
    assert {f"2x{v}" for v in range(1, 13)} <= legal  # X alone, any value
    assert {"1-2x7", "1-2x8", "1-2x9", "2-3x1", "2-3x2"} <= legal
    assert not any(m.startswith("1-3") for m in legal)  # 8 X 1 is no 3-card combination
    assert legal == kk.reference_legal(s)


# ----------------------------------------------------------------------------- rulebook examples


def test_rulebook_example_1_beating(kk: ModuleType) -> None:
    # Andy (0) single 8; Carla (1) single 12; Nico (2) 2-run 5-4; Susie (3) 2-run 5-6.
    s = kk.build(["8 1 1", "12 2 2", "5 4 9", "5 6 10"], leader=0)
    kk.play(s, "1", "1")
    assert "3" not in kk.engine_legal(s)  # Nico's single 9 does not beat the 12
    kk.play(s, "1-2")
    assert "1" not in kk.engine_legal(s)  # Susie's single 5 does not beat a 2-run
    kk.play(s, "1-2")
    assert s.current_player == 3 == s.leader  # Susie won the round and leads the next
    assert [e.kind for e in s.events[-2:]] == ["round_won", "round_start"]
    assert s.events[-2].seat == 3


def test_rulebook_example_2_reserves(kk: ModuleType) -> None:
    # Susie (3) pair of 11s; Andy (0) 3-run 6-7-8; Carla (1) cannot beat, takes reserve 7
    # next to her 6; Nico (2) cannot beat and takes reserve 12.
    s = kk.build(
        ["6 7 8 2", "6 1 3", "2 4 9", "11 11 1"],
        reserves=["", "7 10", "12 5", ""],
        leader=3,
    )
    kk.play(s, "1-2", "1-3")
    assert not any(m[0].isdigit() for m in kk.engine_legal(s))  # Carla cannot beat
    kk.play(s, "r1@2")
    assert kk.hand_text(s, 1) == "6 7 1 3"
    assert s.reserves[1] == [10]
    kk.play(s, "r1@4")
    assert kk.hand_text(s, 2) == "2 4 9 12"
    assert s.current_player == 0  # Andy won and leads
    kk.play(s, "1")  # Andy: single 2
    kk.play(s, "1-2")  # Carla plays the 2-run 6-7 she built
    assert s.best == strength(RUN2, 7)


def test_rulebook_example_3_nachzieh_draws(kk: ModuleType) -> None:
    # Andy (0) single 12; Carla (1) 2-run 7-6; Nico (2) 2-run 11-12; Susie (3) Nachzieh.
    s = kk.build(["12 3", "7 6 3", "11 12 3", "N 1 9"], leader=0, draw_top="9 10 2")
    kk.play(s, "1", "1-2", "1-2", "1")
    assert s.phase == "draw" and s.current_player == 2 and s.draws_left == 3
    assert s.observation(2).pending == 9 and s.observation(0).pending is None
    assert kk.engine_legal(s) == {"@1", "@2"}
    kk.play(s, "@1")
    assert s.pending == 10 and s.draws_left == 2
    kk.play(s, "@3", "@2")
    assert kk.hand_text(s, 2) == "9 2 3 10"
    assert s.phase == "play" and s.current_player == 2 == s.leader
    assert s.observation(0).public_hands[2] == (None, None, None, None)
    assert len(s.draw_pile) == 3


# ----------------------------------------------------------------------------- Stopp


def test_stopp_ends_the_round_at_once(kk: ModuleType) -> None:
    s = kk.build(["5 1", "S 2", "9 9 9", "8 7"], leader=0)
    kk.play(s, "1", "1")
    assert s.current_player == 1 == s.leader  # seats 2 and 3 did not act
    assert kk.hand_text(s, 2) == "9 9 9" and kk.hand_text(s, 3) == "8 7"
    assert s.phase == "play" and s.draws_left == 0


def test_stopp_beats_a_triple_and_the_leader_may_play_it(kk: ModuleType) -> None:
    s = kk.build(["9 9 9 1", "S 2", "2 4", "8 7"], leader=0)
    kk.play(s, "1-3")
    assert kk.engine_legal(s) & {"1", "2"} == {"1"}  # the Stopp, not the single 2
    kk.play(s, "1")
    assert s.current_player == 1 == s.leader
    s = kk.build(["S 1", "2 3", "4 4", "6 7"], leader=0)
    kk.play(s, "1")
    assert s.current_player == 0 and s.round_acts == [] and s.rounds == 1
    assert kk.hand_text(s, 1) == "2 3"


def test_stopp_and_nachzieh_are_played_alone(kk: ModuleType) -> None:
    s = kk.build(["S 5 N 6", "2 3", "4 4", "6 7"], leader=0)
    legal = kk.engine_legal(s)
    assert {"1", "3"} <= legal
    assert not {"1-2", "2-3", "3-4", "2-4"} & legal
    with pytest.raises(IllegalActionError, match="played alone") as info:
        kk.play(s, "1-2")
    assert info.value.code == "kk.specials_alone"


def test_stopp_after_nachzieh_makes_the_stopp_player_draw(kk: ModuleType) -> None:
    s = kk.build(["5 1", "N 2", "S 3", "8 7"], leader=0, draw_top="10 11 12")
    kk.play(s, "1", "1", "1")
    assert s.phase == "draw" and s.current_player == 2 and s.draws_left == 3


# ----------------------------------------------------------------------------- Nachzieh


def test_nachzieh_keeps_what_must_be_beaten(kk: ModuleType) -> None:
    s = kk.build(["8 1", "N 2", "7 9", "3 4"], leader=0)
    kk.play(s, "1", "1")
    legal = kk.engine_legal(s)
    assert "2" in legal and "1" not in legal  # 9 beats the 8, the 7 does not
    assert legal == kk.reference_legal(s)


def test_nachzieh_leader_wins_when_nobody_plays_a_combination(kk: ModuleType) -> None:
    s = kk.build(
        ["N 1", "2 3", "N 4", "5 6"],
        reserves=["", "7 7", "8 9", "10 11"],
        leader=0,
        draw_top="12 12 12 12 11 11",
    )
    kk.play(s, "1")
    legal = kk.engine_legal(s)
    assert "1" in legal and "1-2" in legal  # after a leading Nachzieh anything goes
    kk.play(s, "r1@1", "1", "r2@1")  # reserve, the second Nachzieh, reserve
    assert s.phase == "draw" and s.current_player == 0 and s.draws_left == 6
    kk.play(s, *["@1"] * 6)
    assert kk.hand_text(s, 0) == "11 11 12 12 12 12 1"
    assert s.current_player == 0 and s.phase == "play"


def test_nachzieh_winner_with_empty_hand_draws_and_stays(kk: ModuleType) -> None:
    s = kk.build(["N", "2 3", "4 5"], reserves=["", "7 8", "9 10"], leader=0, draw_top="1 2 3")
    kk.play(s, "1", "r1@1", "r1@1")
    assert s.phase == "draw" and s.hands[0] == []
    kk.play(s, "@1", "@1", "@1")
    assert s.in_deal == [True, True, True] and kk.hand_text(s, 0) == "3 2 1"
    assert s.current_player == 0


def test_both_nachzieh_in_one_round_draw_six(kk: ModuleType) -> None:
    s = kk.build(["5 1", "N 2", "N 3", "9 7"], leader=0)
    kk.play(s, "1", "1", "1", "1")
    assert s.round_winner == 3 and s.draws_left == 6
    assert len(s.draw_pile) == 5  # 6 dealt, the first card drawn


# ----------------------------------------------------------------------------- reserves


def test_follower_may_take_a_reserve_even_when_able_to_beat(kk: ModuleType) -> None:
    s = kk.build(["5 1", "9 2", "3 4", "6 7"], reserves=["", "11 12", "", ""], leader=0)
    kk.play(s, "1")
    legal = kk.engine_legal(s)
    assert "1" in legal
    assert {f"r{r}@{p}" for r in (1, 2) for p in (1, 2, 3)} <= legal
    assert legal == kk.reference_legal(s)
    kk.play(s, "r2@3")
    assert s.hands[1] == [9, 2, 12] and s.known[1] == [False, False, True]
    assert s.observation(0).public_hands[1] == (None, None, 12)


def test_two_equal_reserves_are_one_move(kk: ModuleType) -> None:
    s = kk.build(["5 1", "9 2", "3 4", "6 7"], reserves=["", "11 11", "", ""], leader=0)
    kk.play(s, "1")
    legal = kk.engine_legal(s)
    assert "r1@1" in legal and not any(m.startswith("r2") for m in legal)
    with pytest.raises(IllegalActionError, match="Both reserve cards are 11; take reserve card 1:"
                       " r1@2") as info:
        kk.play(s, "r2@2")
    assert info.value.code == "kk.same_reserves"


# ----------------------------------------------------------------------------- concession


def test_voluntary_concession_on_by_default(kk: ModuleType) -> None:
    s = kk.build(["5 1", "9 2", "3 4", "6 7"], leader=0)
    kk.play(s, "1")
    assert {"1", "concede"} <= kk.engine_legal(s)
    kk.play(s, "concede")
    assert s.chips == [3, 2, 3, 3]
    assert s.deal == 1 and s.current_player == 1 == s.leader  # the loser leads the next deal
    assert [len(h) for h in s.hands] == [10] * 4


def test_voluntary_concession_off(kk: ModuleType) -> None:
    opts = {"voluntary_concession": False}
    s = kk.build(["5 1", "9 2", "3 4", "6 7"], leader=0, options=opts)
    kk.play(s, "1")
    assert "concede" not in kk.engine_legal(s)
    with pytest.raises(IllegalActionError, match="voluntary_concession is off") as info:
        kk.play(s, "concede")
    assert info.value.code == "kk.concede_can_play"
    s = kk.build(["12 1", "9 2", "3 4", "6 7"], leader=0, options=opts)
    kk.play(s, "1")
    assert kk.engine_legal(s) == {"concede"}  # cannot beat, no special card, no reserve
    s = kk.build(["12 1", "N 2", "3 4", "6 7"], leader=0, options=opts)
    kk.play(s, "1")
    assert kk.engine_legal(s) == {"1"}  # the Nachzieh is a legal move, so no concession


def test_no_concession_with_reserves_or_as_leader(kk: ModuleType) -> None:
    s = kk.build(["5 1", "9 2", "3 4", "6 7"], reserves=["7 8", "10 11", "", ""], leader=0)
    with pytest.raises(IllegalActionError, match="Whoever leads a round cannot concede") as info:
        kk.play(s, "concede")
    assert info.value.code == "kk.leader_no_concede"
    kk.play(s, "1")
    with pytest.raises(IllegalActionError, match="still have a reserve card") as info:
        kk.play(s, "concede")
    assert info.value.code == "kk.concede_reserve"


# ----------------------------------------------------------------------------- who leads next


def test_second_highest_leads_when_the_winner_is_out(kk: ModuleType) -> None:
    s = kk.build(["3 1", "5 2", "9 4", "11"], leader=0)
    kk.play(s, "1", "1", "1", "1")
    assert s.in_deal == [True, True, True, False]
    assert s.current_player == 2 == s.leader


@pytest.mark.parametrize(("fallback", "leader"), [("next_highest", 0), ("right_neighbour", 1)])
def test_next_leader_fallback(kk: ModuleType, fallback: str, leader: int) -> None:
    # Seat 0: single 5 (keeps cards); seat 1 takes a reserve; seat 2: single 9, its last card;
    # seat 3 wins with 11, its last card. The second-highest (seat 2) is out too.
    s = kk.build(
        ["5 1", "2 3", "9", "11"],
        reserves=["", "7 8", "", ""],
        leader=0,
        options={"next_leader_fallback": fallback},
    )
    kk.play(s, "1", "r1@1", "1", "1")
    assert s.in_deal == [True, True, False, False]
    assert s.current_player == leader


def test_right_neighbour_leads_when_only_the_winner_played_a_combination(
    kk: ModuleType,
) -> None:
    s = kk.build(["12", "2 3", "4 5", "6 7"], reserves=["", "1 1", "1 1", "8 8"], leader=0)
    kk.play(s, "1", "r1@1", "r1@1", "r1@1")
    assert s.in_deal == [False, True, True, True]
    assert s.current_player == 3  # seat 0 won with its last card; its right neighbour leads


def test_right_neighbour_leads_when_the_other_combinations_are_out(kk: ModuleType) -> None:
    s = kk.build(["12", "2", "4 5", "6 7"], reserves=["", "", "1 1", "8 8"], leader=1)
    kk.play(s, "1", "r1@1", "r1@1", "1")
    assert s.in_deal == [False, False, True, True]
    assert s.current_player == 3


def test_after_a_stopp_win_the_standing_combination_leads(kk: ModuleType) -> None:
    s = kk.build(["4 1", "9 2", "S", "6 7"], leader=0)
    kk.play(s, "1", "1", "1")
    assert s.in_deal == [True, True, False, True]
    assert s.current_player == 1  # the 9 stood when the Stopp fell


# ----------------------------------------------------------------------------- end of a deal


def test_last_player_holding_cards_loses_a_chip(kk: ModuleType) -> None:
    s = kk.build(["5", "7", "8 2"], leader=0)
    kk.play(s, "1", "1", "1")
    assert s.chips == [3, 3, 2] and s.deal == 1
    assert s.current_player == 2 == s.leader  # the loser leads the new deal
    assert [e.kind for e in s.events if e.kind in ("chip_lost", "deal_end")] == [
        "chip_lost",
        "deal_end",
    ]


def test_everyone_out_together_all_but_the_winner_lose(kk: ModuleType) -> None:
    s = kk.build(["", "5", "7", "9"], leader=1, chips=[1, 3, 3, 3])
    kk.play(s, "1", "1", "1")
    # Seat 0 was already out: it took no part in the last round and keeps its chip.
    assert s.chips == [1, 2, 2, 3]
    assert s.deal == 1 and s.current_player == 0  # several lost: the dealer leads


def test_player_without_chips_keeps_playing(kk: ModuleType) -> None:
    s = kk.build(["5", "7", "8 2"], leader=0, chips=[0, 1, 1])
    kk.play(s, "1", "1", "1")
    assert s.chips == [0, 1, 0] and not s.is_terminal()
    assert len(s.hands[0]) == 10


# ----------------------------------------------------------------------------- end of the game


def test_game_ends_when_a_player_cannot_give_a_chip(kk: ModuleType) -> None:
    s = kk.build(["5 1", "9 2", "3 4", "6 7"], leader=0, chips=[1, 0, 1, 1])
    kk.play(s, "1", "concede")
    assert s.is_terminal() and s.losers == [1]
    assert s.current_player == TERMINAL and s.legal_actions() == []
    assert s.returns() == [1 / 3, -1.0, 1 / 3, 1 / 3]


def test_several_losers_at_once(kk: ModuleType) -> None:
    s = kk.build(["5", "7", "9"], leader=0, chips=[0, 0, 2])
    assert s.returns() == [0.0, 0.0, 0.0]
    kk.play(s, "1", "1", "1")
    assert s.is_terminal() and s.losers == [0, 1]
    assert s.returns() == [-1.0, -1.0, 2.0]
    assert sum(s.returns()) == 0


def test_x_card_play_declares_its_value(kk: ModuleType) -> None:
    s = kk.build(["X 5 1", "6 6", "3 4", "7 8"], leader=0)
    kk.play(s, "1-2x5")
    assert s.best == strength(PAIR, 5)
    assert s.round_acts[0].x_values == (5,)
    assert s.events[-1].data["x_values"] == [5]
    assert "1-2" in kk.engine_legal(s)  # the pair of 6 beats


@pytest.mark.parametrize(("x_with_x", "pair_legal"), [(False, False), (True, True)])
def test_x_with_x_option(kk: ModuleType, x_with_x: bool, pair_legal: bool) -> None:
    s = kk.build(["X X 5", "6 6", "3 4", "7 8"], leader=0, options={"x_with_x": x_with_x})
    legal = kk.engine_legal(s)
    assert ("1-2x7x7" in legal) is pair_legal
    assert ("1-3x5x5" in legal) is pair_legal  # a triple of 5
    assert ("1-3x3x4" in legal) is pair_legal  # a 3-run 3-4-5
    assert "2-3x5" in legal  # one X with a number card is always fine
    assert legal == kk.reference_legal(s)


def test_play_dataclass_is_the_applied_action(kk: ModuleType) -> None:
    s = kk.build(["8 1 1", "12 2 2", "5 4 9", "5 6 10"], leader=0)
    s.apply(Play(0))
    assert s.history == [Play(0, 1, ())]
