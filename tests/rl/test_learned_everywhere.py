"""The learned bot in every game with an encoding, and the first-legal baseline: registered
without naming a game, shipped weights that fit the encodings, reachable from the command
line and the arena, and playing from the seat's observation alone."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from kartentisch.arena import run_arena
from kartentisch.bots.registry import list_bots, make_bot
from kartentisch.cli.main import app
from kartentisch.core.registry import descriptors, load_game
from kartentisch.rl.dmc import QNetwork
from kartentisch.rl.encodings import encoding_for
from kartentisch.rl.learned import weights_path

ENCODED = sorted(d.name for d in descriptors() if d.encoding is not None)
runner = CliRunner()
ENGLISH = {"LC_ALL": None, "LC_MESSAGES": None, "LANG": "en_GB.UTF-8"}


def test_every_game_has_an_encoding_and_both_bots() -> None:
    """Every game of the project is encoded today, so each has ``learned``; first-legal is
    generic."""
    assert sorted(d.name for d in descriptors()) == ENCODED
    for name in ENCODED:
        assert {"learned", "first-legal"} <= set(list_bots(name))


@pytest.mark.parametrize("name", ENCODED)
def test_shipped_weights_load_fit_the_encoding_and_say_how_they_were_trained(name: str
                                                                             ) -> None:
    path = weights_path(name)
    assert path.is_file()
    net = QNetwork.load(path)
    game = load_game(name)
    enc = encoding_for(game)
    assert net.game == name
    assert (net.obs_size, net.feature_size) == (enc.obs_size, enc.feature_size)
    with np.load(path) as raw:
        assert raw["w_obs"].dtype == np.float16
    for key in ("method", "games", "machine"):
        assert key in net.info, (name, net.info)
    assert path.stat().st_size < 2_000_000


@pytest.mark.parametrize("name", ENCODED)
def test_first_legal_plays_the_first_legal_action(name: str) -> None:
    game = load_game(name)
    bot = make_bot("first-legal", game, 3)
    state = game.new_initial_state(5)
    for _ in range(30):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        assert bot.act(state.observation(state.current_player), legal) == legal[0]
        assert bot.act(None, state.legal_action_ids()) == state.legal_action_ids()[0]
        state.apply(legal[-1])


@pytest.mark.parametrize("name", ENCODED)
def test_learned_values_depend_on_the_observation_only(name: str) -> None:
    """Re-deal what the seat cannot see (``game.sample_world``): the bot's value of every
    legal action stays the same, so nothing hidden reaches its choice."""
    game = load_game(name)
    bot = make_bot("learned", game, 0)
    rng = random.Random(7)
    state = game.new_initial_state(11)
    checked = 0
    for step in range(120):
        if state.is_terminal():
            break
        seat = state.current_player
        ids = state.legal_action_ids()
        if step % 5 == 0 and len(ids) > 1:
            obs = state.observation(seat)
            values = bot.values(obs, ids)
            for k in range(2):
                world = game.sample_world(obs, random.Random(k))
                assert world.legal_action_ids() == ids
                assert np.array_equal(bot.values(world.observation(seat), ids), values)
            checked += 1
        state.apply_id(ids[rng.randrange(len(ids))])
    assert checked >= 3


@pytest.mark.parametrize("name", ENCODED)
@pytest.mark.parametrize("bot", ["learned", "first-legal"])
def test_learned_and_first_legal_in_the_arena_and_the_command_line(name: str, bot: str,
                                                                  tmp_path: Path) -> None:
    """Each bot beside heuristics (two first-legal bots alone may never end a Casino game)."""
    game = load_game(name)
    lineup = [bot] + ["heuristic"] * (game.players - 1)
    result = run_arena(name, lineup, game.players, seed=1)
    assert result.stats[bot].games == game.players
    summary = tmp_path / "summary.json"
    done = runner.invoke(app, ["arena", name, "--bots", ",".join(lineup), "--games",
                               str(game.players), "--no-progress", "--summary", str(summary)],
                         env=ENGLISH)
    assert done.exit_code == 0, done.output
    assert bot in summary.read_text()
    watched = runner.invoke(app, ["play", name, "--watch", "--bots", ",".join(lineup),
                                  "--seed", "1", "--delay", "0"], env=ENGLISH)
    assert watched.exit_code == 0, watched.output
