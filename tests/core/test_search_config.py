"""The search bots' typed configuration: game defaults, overrides, and refusals."""

from __future__ import annotations

import pytest

from kartentisch.bots.ismcts import ISMCTSBot, ISMCTSConfig
from kartentisch.bots.pimc import PIMCBot, PIMCConfig
from kartentisch.bots.playout import GAME_DEFAULT, Rollout, search_config, search_hooks
from kartentisch.core.registry import list_games, load_game


def test_the_games_defaults_fill_the_configuration() -> None:
    game = load_game("krass-kariert", 4)
    table = game.search_defaults  # type: ignore[attr-defined]
    bot = ISMCTSBot(game, 1)
    assert bot.config.iterations == table["ismcts"]["iterations"]
    assert bot.config.rollout is Rollout(table["ismcts"]["rollout"])
    assert bot.depth == table["ismcts"]["depth"]
    assert PIMCBot(game, 1).candidates == table["pimc"]["candidates"]


def test_none_means_no_limit_and_an_omitted_parameter_the_games_default() -> None:
    game = load_game("krass-kariert", 4)
    assert ISMCTSBot(game, 1).max_steps is not None
    assert ISMCTSBot(game, 1, max_steps=None).max_steps is None
    assert ISMCTSBot(game, 1, max_steps=GAME_DEFAULT).max_steps == ISMCTSBot(game, 1).max_steps
    assert PIMCBot(game, 1, anchor=None).anchor is None
    assert ISMCTSBot(game, 1, anchor=2).anchor == 2.0


def test_a_whole_configuration_replaces_the_defaults() -> None:
    game = load_game("casino")
    config = ISMCTSConfig(iterations=7, rollout=Rollout.RANDOM, anchor=None)
    bot = ISMCTSBot(game, 1, config=config)
    assert bot.config is config and bot.iterations == 7 and bot.anchor is None
    assert PIMCBot(game, 1, config=PIMCConfig(iterations=3)).iterations == 3


def test_unknown_parameters_and_rollouts_are_refused() -> None:
    game = load_game("krumme20")
    with pytest.raises(TypeError, match="no parameter"):
        search_config(PIMCConfig, game, "pimc", {"widening": 1.0})
    with pytest.raises(ValueError, match="rollout"):
        PIMCBot(game, 1, rollout="greedy")


@pytest.mark.parametrize("name", list_games())
def test_every_games_defaults_are_valid_configurations(name: str) -> None:
    game = load_game(name)
    assert isinstance(search_config(ISMCTSConfig, game, "ismcts", {}), ISMCTSConfig)
    assert isinstance(search_config(PIMCConfig, game, "pimc", {}), PIMCConfig)
    hooks = search_hooks(game)
    assert hooks.horizon_key is None or hooks.evaluate is not None
