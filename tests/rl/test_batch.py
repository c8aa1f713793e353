"""The rows' core (``kartentisch.rl.fast.rows``) of the batch stepper and the tables, held
to a plain reference loop.

The core steps every row in one call (compiled with the rules when the compiled core is
built); these tests hold it, move for move, to a plain loop over the game states with the
reference encoding of each seat's observation, and the compiled core to pure Python by a
fixed-seed fingerprint. They run in both passes of ``make test``.
"""

from __future__ import annotations

import hashlib
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import kartentisch
from kartentisch import _native
from kartentisch.core.errors import IllegalActionError
from kartentisch.core.registry import load_game
from kartentisch.games.krass_kariert.actions import NUM_ACTIONS as NUM_KK_ACTIONS
from kartentisch.rl.batch import BatchStepper
from kartentisch.rl.encodings import Decision, encoding_for
from kartentisch.rl.fast.rows import kk_mask
from kartentisch.rl.table import SEED_LIMIT, Table

CASES = [("krass-kariert", 4), ("krass-kariert", 5), ("casino", 2), ("casino", 4),
         ("krumme20", 3), ("krumme20", 6)]


def _pick(masks: np.ndarray, rng: np.random.Generator) -> list[int]:
    return [int(rng.choice(np.flatnonzero(m))) for m in masks]


class ReferenceRows:
    """The batch stepper's token interface written plainly: the game states, a
    :class:`~kartentisch.rl.encodings.base.Decision` per row, and the reference encoding of
    each seat's observation (no fast path, no rows' core)."""

    def __init__(self, game: str, players: int, rows: int, seed: int,
                 options: dict[str, Any] | None = None) -> None:
        self.game = load_game(game, players, options)
        self.encoding = encoding_for(self.game)
        self.rng = np.random.default_rng(seed)
        self.states = [self._new_state() for _ in range(rows)]
        self.decisions = [self._decision(s) for s in self.states]

    def _new_state(self) -> object:
        return self.game.new_initial_state(int(self.rng.integers(SEED_LIMIT)))

    def _decision(self, state: object) -> Decision:
        seat = state.current_player  # type: ignore[attr-defined]
        return self.encoding.decision(state.observation(seat),  # type: ignore[attr-defined]
                                      state.legal_action_ids())  # type: ignore[attr-defined]

    def arrays(self) -> tuple[np.ndarray, np.ndarray, list[int]]:
        seats = [s.current_player for s in self.states]  # type: ignore[attr-defined]
        obs = np.stack([self.encoding.encode(s.observation(seat), d.prefix)  # type: ignore[attr-defined]
                        for s, seat, d in zip(self.states, seats, self.decisions, strict=True)])
        masks = np.stack([d.mask() for d in self.decisions])
        return obs, masks, seats

    def step(self, tokens: list[int]) -> tuple[np.ndarray, np.ndarray]:
        rewards = np.zeros((len(self.states), self.game.players), dtype=np.float32)
        dones = np.zeros(len(self.states), dtype=bool)
        for i, token in enumerate(tokens):
            aid = self.decisions[i].choose(token)
            if aid is None:
                continue
            state = self.states[i]
            state.apply_unchecked(aid)  # type: ignore[attr-defined]
            if state.is_terminal():  # type: ignore[attr-defined]
                rewards[i] = state.returns()  # type: ignore[attr-defined]
                dones[i] = True
                state = self.states[i] = self._new_state()
            self.decisions[i] = self._decision(state)
        return rewards, dones


@pytest.mark.parametrize(("game", "players"), CASES)
def test_rows_match_the_table_loop_move_for_move(game: str, players: int) -> None:
    """Same seeds, same tokens: the same vectors, masks, seats, rewards and finished games
    (games end within the run: the rows are replaced exactly as the tables are)."""
    steps = {"krass-kariert": 500, "casino": 700, "krumme20": 400}[game]
    stepper = BatchStepper(game, 4, seed=21, players=players)
    finished = _step_along(stepper, ReferenceRows(game, players, 4, seed=21), steps, 21, 5)
    assert finished >= 1 and stepper.games_finished == finished


def _step_along(stepper: BatchStepper, reference: ReferenceRows, steps: int, seed: int,
                policy_seed: int, ended: Any = None) -> int:
    """Reset ``stepper`` with ``seed`` (its rows' games as ``reference``'s, made with the
    same seed), then step both with the same random tokens, comparing vectors,
    masks, seats, rewards and finished games at every step; ``ended(rewards, dones)`` sees
    each step's results. Returns the games finished."""
    policy = np.random.default_rng(policy_seed)
    obs, masks, current = stepper.reset(seed=seed)
    finished = 0
    for _ in range(steps):
        ref_obs, ref_masks, ref_seats = reference.arrays()
        assert obs.tobytes() == ref_obs.tobytes()
        assert np.array_equal(masks, ref_masks)
        assert current.tolist() == ref_seats
        tokens = _pick(masks, policy)
        obs, masks, rewards, dones, current = stepper.step(tokens)
        ref_rewards, ref_dones = reference.step(tokens)
        assert np.array_equal(rewards, ref_rewards) and np.array_equal(dones, ref_dones)
        if ended is not None:
            ended(rewards, dones)
        finished += int(dones.sum())
    return finished


@pytest.mark.parametrize(("game", "players"), [("krass-kariert", 3), ("casino", 3),
                                               ("krumme20", 4)])
def test_a_table_matches_the_reference_for_every_seat(game: str, players: int) -> None:
    """The environments' Table (a one-row core): every seat's vector and mask, the seat to
    act's with the tokens chosen so far, equal the reference, token by token."""
    table = Table(game, players)
    reference = ReferenceRows(game, players, 1, seed=6)
    table.new_game(int(np.random.default_rng(6).integers(SEED_LIMIT)))
    rng = np.random.default_rng(2)
    enc = reference.encoding
    for _ in range(250):
        state = reference.states[0]
        assert table.state.to_json() == state.to_json()
        decision = reference.decisions[0]
        for seat in range(players):
            prefix = decision.prefix if seat == state.current_player else ()
            expected = enc.encode(state.observation(seat), prefix)
            assert table.observe(seat).tobytes() == expected.tobytes()
            out = np.full(enc.obs_size, 7.0, dtype=np.float32)
            assert table.observe(seat, out) is out and out.tobytes() == expected.tobytes()
            mask = table.mask(seat)
            if seat == state.current_player:
                assert np.array_equal(mask, decision.mask())
                assert table.decision.next_tokens() == decision.next_tokens()
                assert table.prefix == decision.prefix
            else:
                assert not mask.any()
        token = int(rng.choice(np.flatnonzero(decision.mask())))
        completed = table.step(token)
        rewards, dones = reference.step([token])
        assert completed == (len(reference.decisions[0].prefix) == 0)
        if dones[0]:  # the reference starts a new game; the table stays at the end
            assert table.is_over()
            assert np.array_equal(np.array(table.returns(), dtype=np.float32), rewards[0])
            assert table.decision is None and not table.mask(0).any()
            table.new_game(0)
            reference.states[0] = table.state.clone()
            reference.decisions[0] = reference._decision(reference.states[0])


def test_an_illegal_token_stops_at_its_row_and_leaves_it_unchanged() -> None:
    stepper = BatchStepper("casino", 3, seed=2, players=2, copy=False)
    _, masks, _ = stepper.reset()
    first = int(np.flatnonzero(masks[0])[0])
    bad = int(np.flatnonzero(masks[1] == 0)[0])
    before = [t.state.to_json() for t in stepper.tables][1:]
    prefix = [list(t.decision.prefix) for t in stepper.tables]
    with pytest.raises(IllegalActionError):
        stepper.step([first, bad, int(np.flatnonzero(masks[2])[0])])
    tables = stepper.tables
    assert tables[0].decision.prefix == [*prefix[0], first]  # row 0 stepped
    assert [t.state.to_json() for t in tables][1:] == before
    assert [t.decision.prefix for t in tables][1:] == prefix[1:]
    for i, table in enumerate(tables):  # the arrays show every row as it is
        seat = table.current_player
        assert np.array_equal(stepper._obs[i], table.observe(seat))
        assert np.array_equal(stepper._masks[i], table.mask(seat))


@pytest.mark.parametrize(("game", "players"), [("krass-kariert", 4), ("casino", 2)])
def test_arrays_shared_without_copies_refuse_writes(game: str, players: int) -> None:
    """``copy=False`` hands out the stepper's own arrays. The rows' core does not rewrite
    every cell at every step (a Casino decision that goes on writes one token's cell), so a
    caller's write would corrupt later observations: the arrays refuse writes, and they show
    each new step as the copies of a ``copy=True`` stepper on the same games do."""
    shared = BatchStepper(game, 3, seed=6, players=players, copy=False)
    copied = BatchStepper(game, 3, seed=6, players=players)
    arrays = shared.reset()
    assert all(np.array_equal(a, b) for a, b in zip(arrays, copied.reset(), strict=True))
    rng = np.random.default_rng(1)
    for _ in range(60):
        tokens = _pick(arrays[1], rng)
        arrays = shared.step(tokens)
        expected = copied.step(tokens)
        assert all(np.array_equal(a, b) for a, b in zip(arrays, expected, strict=True))
    for array in arrays:
        with pytest.raises(ValueError, match="read-only"):
            array[0] = 1
    if game == "krass-kariert":  # whole actions (a Casino row may be inside a decision)
        rewards, dones = shared.step_actions([shared.legal_ids(i)[0] for i in range(3)])
        for array in (rewards, dones):
            with pytest.raises(ValueError, match="read-only"):
                array[0] = 1
        assert copied.step_actions([copied.legal_ids(i)[0] for i in range(3)])[0].flags.writeable


def test_whole_actions_and_tokens_may_alternate() -> None:
    """``step_actions`` (through the tables) and ``step`` (through the core) hand the games
    over in both directions: the same games as a reference that uses tables throughout."""
    stepper = BatchStepper("krass-kariert", 3, seed=4, players=3)
    reference = ReferenceRows("krass-kariert", 3, 3, seed=4)
    rng = np.random.default_rng(8)
    for k in range(120):
        if k % 3 == 0:
            ids = [stepper.legal_ids(i)[0] for i in range(3)]
            assert ids == [d.legal_ids[0] for d in reference.decisions]
            rewards, dones = stepper.step_actions(ids)
            ref_rewards, ref_dones = reference.step(ids)
        else:
            _, masks, _ = reference.arrays()
            tokens = _pick(masks, rng)
            _, _, rewards, dones, _ = stepper.step(tokens)
            ref_rewards, ref_dones = reference.step(tokens)
        assert np.array_equal(rewards, ref_rewards) and np.array_equal(dones, ref_dones)
        assert stepper.current_players().tolist() == [s.current_player
                                                      for s in reference.states]
    assert [t.state.to_json() for t in stepper.tables] == [
        s.to_json() for s in reference.states]


KK_OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"x_with_x": True},
    {"voluntary_concession": False},
    {"x_with_x": True, "voluntary_concession": False},
]


@pytest.mark.parametrize("options", KK_OPTION_SETS, ids=lambda o: ",".join(o) or "defaults")
@pytest.mark.parametrize("players", [3, 4, 5])
def test_krass_kariert_masks_are_the_legal_ids(players: int, options: dict[str, Any]) -> None:
    """The rows' core writes Krass Kariert's masks from the move table (``kk_mask``), not
    from ``legal_action_ids()``: the same ids at every position of random games, in both
    phases, for every option that changes what is legal."""
    game = load_game("krass-kariert", players, options)
    phases: set[str] = set()
    rng = random.Random(players)
    for seed in range(2):
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            ids = state.legal_action_ids()
            mask = bytearray(NUM_KK_ACTIONS)
            kk_mask(state, mask)
            assert [i for i, m in enumerate(mask) if m] == sorted(ids), (seed, ids)
            assert set(mask) <= {0, 1}
            phases.add(state.phase)
            state.apply_unchecked(ids[rng.randrange(len(ids))])
    assert phases == {"play", "draw"}


FINGERPRINT = """
import hashlib, numpy as np
import kartentisch
from kartentisch.rl.batch import BatchStepper
for game, players, rows, steps in (("krass-kariert", 4, 5, 300), ("casino", 2, 3, 900),
                                   ("krumme20", 3, 5, 300)):
    stepper = BatchStepper(game, rows, seed=99, players=players, copy=False)
    obs, masks, cur = stepper.reset()
    rng = np.random.default_rng(3)
    h = hashlib.sha256()
    for _ in range(steps):
        tokens = [int(rng.choice(np.flatnonzero(m))) for m in masks]
        obs, masks, rewards, dones, cur = stepper.step(tokens)
        for a in (obs, masks, rewards, dones, cur):
            h.update(a.tobytes())
    print(game, h.hexdigest(), stepper.games_finished)
print(kartentisch.compiled)
"""


@pytest.mark.skipif(not kartentisch.compiled,
                    reason="compares the compiled core with pure Python (make compiled)")
def test_compiled_rows_give_the_pure_fingerprint() -> None:
    """Fixed seeds and tokens: every array of every step hashed, pure and compiled alike,
    for the three games (games end and are replaced within the run)."""
    env = {k: v for k, v in os.environ.items() if k != _native.PURE_ENV}
    src = str(Path(kartentisch.__file__).resolve().parents[1])
    env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
    runs = []
    for pure in ("1", "0"):
        env[_native.PURE_ENV] = pure
        done = subprocess.run([sys.executable, "-c", FINGERPRINT], capture_output=True,
                              text=True, env=env, check=True)
        runs.append(done.stdout.split("\n"))
    assert runs[0][-2:] == ["False", ""] and runs[1][-2:] == ["True", ""]
    assert runs[0][:-2] == runs[1][:-2]
    assert len(runs[0]) == 5
    for line in runs[0][:-2]:
        game, digest, finished = line.split()
        assert int(finished) >= 1, game
        assert digest != hashlib.sha256(b"").hexdigest()


@pytest.mark.parametrize("teams", ["pairs", "trios"])
def test_rows_play_the_krumme20_team_variant_as_the_reference(teams: str) -> None:
    """The compiled stepper's rows support the team variant: its vectors (with the team
    fields), masks and rewards (every member of a winning team its team's share) equal the
    reference's, move for move."""
    options = {"teams": teams}
    stepper = BatchStepper("krumme20", 3, seed=8, players=6, options=options)
    team = [0, 1, 0, 1, 0, 1] if teams == "trios" else [0, 1, 2, 0, 1, 2]

    def paid_alike(rewards: np.ndarray, dones: np.ndarray) -> None:
        for row in np.flatnonzero(dones):  # teammates are paid alike
            for s in range(6):
                assert rewards[row][s] == rewards[row][team.index(team[s])]

    reference = ReferenceRows("krumme20", 6, 3, seed=8, options=options)
    assert _step_along(stepper, reference, 400, 8, 8, paid_alike) >= 1
