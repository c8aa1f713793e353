"""The Casino heuristic bot: sensible single choices, and it beats random play."""

from __future__ import annotations

from collections.abc import Callable

from kartentisch.bots import make_bot
from kartentisch.games.casino import Build, Capture, Casino, CasinoState, Trail
from kartentisch.games.casino.cards import parse_card

C = parse_card
Setup = Callable[..., CasinoState]


def choose(state: CasinoState) -> object:
    bot = make_bot("heuristic", state.game, seed=1)
    return bot.act(state.observation(state.current_player), state.legal_actions())


def test_takes_the_big_casino(setup: Setup) -> None:
    state = setup(hands=["Ts 3h", "Kc Kd"], loose="Td 2c 4c")
    assert choose(state) == Capture(C("Ts"), (C("Td"),))


def test_takes_the_most_valuable_set(setup: Setup) -> None:
    state = setup(hands=["7h 9s", "Kc Kd"], loose="3c 4d 6s As 2d 5c")
    action = choose(state)
    # the 9s takes As 2d 6s and 4d 5c: six cards with an ace and two spades
    assert action == Capture(C("9s"), tuple(sorted(C(n) for n in ("As", "2d", "4d", "5c", "6s"))))


def test_builds_when_it_holds_the_card(setup: Setup) -> None:
    state = setup(hands=["2h 8s", "Kc Kd"], loose="6c")
    assert choose(state) == Build(C("2h"), 8, (C("6c"),))


def test_keeps_casinos_and_aces_when_trailing(setup: Setup) -> None:
    state = setup(hands=["As 2s Td Kh", "Qc Qd"], loose="")
    assert choose(state) == Trail(C("Kh"))


def test_beats_random_players() -> None:
    game = Casino(2)
    wins = 0
    for index in range(20):
        state = game.new_initial_state(index)
        bots = [make_bot("heuristic" if s == index % 2 else "random", game, seed=index + s)
                for s in range(2)]
        while not state.is_terminal():
            seat = state.current_player
            state.apply(bots[seat].act(state.observation(seat), state.legal_actions()))
        wins += state.returns()[index % 2] > 0
    assert wins >= 17  # about 999 in 1000 over long runs
