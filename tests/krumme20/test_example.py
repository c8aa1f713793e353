"""The rule sheet's worked example (Adam, Bertie, Caro) as a constructed position."""

from __future__ import annotations

from kartentisch.games.krumme20 import K20State

ADAM, BERTIE, CARO = 0, 1, 2


def act(state: K20State, text: str) -> None:
    state.apply(state.game.parse_action(text, state))


def hand(state: K20State, seat: int) -> list[str]:
    return [state.card_text(c) for c in state.hands[seat]]


def test_sheet_example_compensation_and_foul(build) -> None:
    state = build(
        hands=[["2/4", "1/2", "0/1"], ["1/3", "2/2"], ["5/2", "1/4", "2/3"]],
        ablage=["4/1", "5/2"],
        draw_top=["0/0", "1/1", "3/0", "0/5"],
        turn_player=ADAM,
    )
    trace = [(state.current_player, state.phase, state.total)]

    def step(text: str) -> None:
        act(state, text)
        trace.append((state.current_player, state.phase, state.total))

    step("p1")  # Adam plays the 2/4; it turns over and counts 4: 9 + 4 = 13
    step("sitout")  # the 4's action: Bertie sits out
    step("draw")  # Bertie's compensation: one card
    step("p1")  # Caro plays the 5/2, counting 2: 15, and may draw up to two
    step("draw")
    step("draw")
    step("f1")  # the second card on 15 "as a 5" is a 1/4: it shows 4, total 19: a foul
    step("low 2")  # Adam puts his lowest personal card (0/1) on his score pile
    step("low 3")  # then Bertie his (the 0/5 he drew)
    assert trace == [
        (ADAM, "turn", 9),
        (ADAM, "four", 13),
        (BERTIE, "sitout", 13),
        (CARO, "turn", 13),  # Bertie's turn was skipped
        (CARO, "draw", 15),
        (CARO, "draw", 15),
        (CARO, "five", 15),
        (ADAM, "foul", 19),
        (BERTIE, "foul", 19),
        (ADAM, "turn", 19),
    ]
    assert hand(state, BERTIE) == ["1/3", "2/2"]
    assert [state.card_text(c) for c in state.scores[ADAM]] == ["0/1"]
    assert [state.card_text(c) for c in state.scores[BERTIE]] == ["0/5"]
    assert hand(state, CARO) == ["2/3", "3/0", "1/1"]
    # the unlawful second card stays on the Ablagestapel, counting 4
    assert [state.card_text(c) for c in state.ablage] == ["4/1", "5/2", "4/2", "2/5", "4/1"]
    assert state.fouls == [0, 0, 1]
    assert not any(state.sitting_out)
