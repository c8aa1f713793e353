"""The game descriptors: complete, in both languages, and true to the games they describe."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from kartentisch.bots.playout import random_games, search_hooks
from kartentisch.cli.presenters import load_presenter
from kartentisch.core.descriptor import GameDescriptor, load_target
from kartentisch.core.errors import UnknownGameError
from kartentisch.core.registry import descriptor, descriptor_of, descriptors, list_games, load_game
from kartentisch.locale import set_language, translation
from kartentisch.server.web import games_words, open_view, win_chance

STATIC = Path(__file__).resolve().parents[2] / "src" / "kartentisch" / "server" / "static"
NAMES = list_games()


def german(message: str) -> str:
    """The German catalogue's text of ``message`` (the message itself when missing)."""
    return str(translation("de").gettext(message))


def test_the_registry_hands_out_one_descriptor_per_game() -> None:
    assert [d.name for d in descriptors()] == NAMES
    for name in NAMES:
        described = descriptor(name)
        assert isinstance(described, GameDescriptor)
        assert described.game_class.spec.name == name
        assert descriptor(name.replace("-", "_").upper()) is described
    with pytest.raises(UnknownGameError):
        descriptor("skat")


@pytest.mark.parametrize("name", NAMES)
def test_every_option_has_a_label_a_help_and_words_in_both_languages(name: str) -> None:
    options = descriptor(name).options()
    fields = {f for f in descriptor(name).game_class.options_type.__dataclass_fields__}
    assert {o.name for o in options} == fields
    for option in options:
        assert option.label and option.label != option.name, option.name
        assert option.help.endswith("."), option.name
        for text in (option.label, option.help, *option.words.values()):
            assert german(text) != text, f"no German text for {text!r}"
        if option.allowed not in ("true|false", "int") and not option.allowed.isdigit():
            choices = option.allowed.split("|")
            if not all(c.isdigit() for c in choices):
                assert sorted(option.words) == sorted(choices), option.name
        # the words say what a value means; the help does not spell values in notation
        for value in option.words:
            assert f"({value})" not in option.help, (option.name, value)


@pytest.mark.parametrize("name", NAMES)
def test_what_a_descriptor_names_exists(name: str) -> None:
    described = descriptor(name)
    assert described.presenter is not None and described.page_module is not None
    assert load_presenter(name).game == name
    assert (STATIC / "js" / "games" / described.page_module).is_file()
    for target in described.bots.values():
        assert callable(load_target(target))
    assert described.encoding is not None and callable(load_target(described.encoding))
    assert described.train_target in described.train_targets
    for text in (described.returns_help, *described.stat_labels.values()):
        assert text and german(text) != text, text


@pytest.mark.parametrize("name", NAMES)
def test_the_statistics_have_labels(name: str) -> None:
    game = load_game(name)
    state = game.new_initial_state(5)
    rng = random.Random(5)
    while not state.is_terminal():
        ids = state.legal_action_ids()
        state.apply_unchecked(ids[rng.randrange(len(ids))])
    stats = descriptor(name).statistics(state)
    assert stats and set(stats) == set(descriptor(name).stat_labels)
    assert all(isinstance(v, float) and v >= 0 for v in stats.values())


def _spans(name: str) -> list[tuple[Any, float, float]]:
    """Per player count and options worth telling apart: the game and its win range."""
    cls = descriptor(name).game_class
    out = []
    for players in range(cls.spec.min_players, cls.spec.max_players + 1):
        out.append(load_game(name, players))
        if name == "casino" and players == 4:
            out.append(load_game(name, 4, {"partnerships": True}))
    return [(game, *descriptor(name).win_range(game)) for game in out]


@pytest.mark.parametrize("name", NAMES)
def test_the_win_range_is_a_losers_and_a_lone_winners_return(name: str) -> None:
    """Random games show a loser's return as the low end, and a lone winner (or, where
    every other seat shares a win, each winner) at the high end."""
    for game, low, high in _spans(name):
        returns, _actions = random_games(game, list(range(12)), random.Random(1))
        seen = {r for result in returns for r in result}
        assert min(seen) == low, (game.players, game.options)
        assert high in seen or max(seen) >= high, (game.players, game.options)
        assert win_chance(game, low) == 0.0 and win_chance(game, high) == 1.0
        assert 0.0 < win_chance(game, (low + high) / 2) < 1.0


@pytest.mark.parametrize("name", NAMES)
def test_the_open_view_shows_every_hand_the_spectator_cannot_see(name: str) -> None:
    """At the start and at the end of a game (where a Krumme20 position writes some cards
    as objects), the open view shows more than the spectator sees."""
    game = load_game(name)
    state = game.new_initial_state(11)
    rng = random.Random(3)
    for _ in range(2):
        spectator = state.observation(None).to_json()
        shown = open_view(state)
        assert shown["open"] is True and shown != {**spectator, "open": True}
        assert descriptor_of(game).open_view(state) == {k: v for k, v in shown.items()
                                                      if k != "open"}
        while not state.is_terminal():
            ids = state.legal_action_ids()
            state.apply_unchecked(ids[rng.randrange(len(ids))])


def test_the_search_hooks_are_declared_per_game() -> None:
    kk = search_hooks(load_game("krass-kariert"))
    assert None not in (kk.evaluate, kk.horizon_key, kk.search_candidates, kk.rollout_action,
                        kk.run_playout, kk.random_games)
    casino = search_hooks(load_game("casino"))
    assert casino.run_playout is None and casino.horizon_key is not None
    k20 = search_hooks(load_game("krumme20"))
    assert k20.horizon_key is None and k20.run_playout is None and k20.evaluate is not None
    for name in NAMES:
        assert search_hooks(load_game(name)).defaults, name


def test_the_lobby_gets_labels_help_and_value_words() -> None:
    words = games_words()
    assert sorted(words) == NAMES
    trail_ban = next(o for o in words["casino"]["options"] if o["name"] == "trail_ban")
    assert trail_ban["default"] == "next_turn"
    assert set(trail_ban["words"]) == {"next_turn", "while_build_stands"}
    assert trail_ban["label"] and trail_ban["help"]
    for game in words.values():
        assert game["returns"] and game["page_module"]


def test_rules_options_shows_the_words_in_the_chosen_language() -> None:
    from typer.testing import CliRunner

    from kartentisch.cli.main import app

    runner = CliRunner()
    german_run = runner.invoke(app, ["rules-options", "casino", "--lang", "de"])
    english_run = runner.invoke(app, ["rules-options", "casino", "--lang", "en"])
    set_language("en")
    assert german_run.exit_code == 0 and english_run.exit_code == 0
    assert "solange ihm ein Bau gehört" in german_run.output
    assert "as long as they own a build" in english_run.output
    assert "trail_ban = next_turn" in english_run.output
