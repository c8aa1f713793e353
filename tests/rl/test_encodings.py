"""The encodings read only what a seat knows, keep a fixed shape, and describe actions."""

from __future__ import annotations

import random

import numpy as np
import pytest

from kartentisch.core.errors import IllegalActionError, UnknownGameError
from kartentisch.core.registry import load_game
from kartentisch.games.krass_kariert.actions import ACTIONS, Play
from kartentisch.rl.encodings import encoding_for
from kartentisch.rl.encodings import krass_kariert as kk


def _positions(players: int, games: int, seed: int = 0):
    """(state, seat) pairs along random games, every seat to act in turn."""
    game = load_game("krass-kariert", players)
    rng = random.Random(seed)
    for g in range(games):
        state = game.new_initial_state(1000 + g)
        while not state.is_terminal():
            yield game, state
            ids = state.legal_action_ids()
            state.apply_id(ids[rng.randrange(len(ids))])


@pytest.mark.parametrize("players", [3, 4, 5])
def test_encoding_unchanged_when_hidden_cards_are_redealt(players: int) -> None:
    """The worst bug is a leak: re-deal what the seat cannot see (game.sample_world) and
    neither the observation vector, the mask nor any action's features may change; every
    seat's view is checked, not only the seat to act."""
    checked = 0
    for n, (game, state) in enumerate(_positions(players, 2, seed=players)):
        if n % 7:
            continue
        enc = encoding_for(game)
        ids = state.legal_action_ids()
        for seat in range(players):
            obs = state.observation(seat)
            vec = enc.encode(obs)
            for k in range(2):
                world = game.sample_world(obs, random.Random(k))
                other = world.observation(seat)
                assert np.array_equal(enc.encode(other), vec)
                if seat == state.current_player:
                    assert world.legal_action_ids() == ids
                    assert np.array_equal(enc.features(other, ids), enc.features(obs, ids))
                    assert np.array_equal(enc.decision(other, ids).mask(),
                                          enc.decision(obs, ids).mask())
            checked += 1
    assert checked > 50


def test_hidden_cards_really_differ_between_worlds() -> None:
    """The re-deal test above has teeth: the sampled worlds do differ in hidden cards."""
    game, state = next(iter(_positions(4, 1)))
    obs = state.observation(0)
    worlds = [game.sample_world(obs, random.Random(k)) for k in range(5)]
    assert len({tuple(map(tuple, w.hands[1:])) for w in worlds}) > 1
    assert all(w.hands[0] == state.hands[0] for w in worlds)


def test_own_hand_is_encoded_in_order() -> None:
    """The hand may never be sorted, so its order is part of the observation."""
    game, state = next(iter(_positions(4, 1)))
    seat = state.current_player
    vec = encoding_for(game).encode(state.observation(seat))
    own = vec[kk.OWN:kk.OTHERS].reshape(kk.MAX_HAND, kk.CARDS)
    hand = state.hands[seat]
    assert [int(np.argmax(row)) + 1 for row in own[: len(hand)]] == hand
    assert not own[len(hand):].any()


def test_known_cards_in_other_hands_and_discard_are_seen() -> None:
    """A reserve card taken into a hand is public where it stands; played cards count."""
    game = load_game("krass-kariert", 4)
    enc = encoding_for(game)
    for _g, state in _positions(4, 3, seed=5):
        obs = state.observation(0)
        vec = enc.encode(obs)
        for r in range(1, 4):
            hand = obs.public_hands[r]
            block = vec[kk.OTHERS + (r - 1) * kk.OTHER_STRIDE:][: kk.OTHER_STRIDE]
            block = block.reshape(kk.MAX_HAND, kk.CARDS + 1)
            for i, card in enumerate(hand):
                assert block[i, kk.CARDS if card is None else card - 1] == 1.0
        played = vec[kk.DISCARD:kk.DISCARD + kk.CARDS]
        for card in set(obs.discard):
            assert played[card - 1] == pytest.approx(
                obs.discard.count(card) / kk._COPY_LIST[card])


def test_shapes_and_bounds_for_every_player_count() -> None:
    for players in (3, 4, 5):
        for n, (game, state) in enumerate(_positions(players, 1, seed=players)):
            if n % 11:
                continue
            enc = encoding_for(game)
            vec = enc.encode(state.observation(state.current_player))
            assert vec.shape == (kk.OBS_SIZE,) and vec.dtype == np.float32
            assert vec.min() >= 0.0 and vec.max() <= 1.0
            feats = enc.features(state.observation(state.current_player),
                                 state.legal_action_ids())
            assert feats.shape == (len(state.legal_action_ids()), kk.FEATURE_SIZE)
            assert feats.min() >= 0.0 and feats.max() <= 1.0


def test_encode_matches_entries_and_out_buffer() -> None:
    game, state = next(iter(_positions(3, 1)))
    enc = encoding_for(game)
    obs = state.observation(1)
    buf = np.full(enc.obs_size, 7.0, dtype=np.float32)
    assert np.array_equal(enc.encode(obs, out=buf), enc.encode(obs))
    ones, where, values = enc.entries(obs, offset=10)
    rebuilt = np.zeros(enc.obs_size + 10, dtype=np.float32)
    rebuilt[ones] = 1.0
    rebuilt[where] = values
    assert np.array_equal(rebuilt[10:], enc.encode(obs))


def test_action_features_describe_the_play() -> None:
    game = load_game("krass-kariert", 4)
    enc = encoding_for(game)
    state = game.new_initial_state(3)
    obs = state.observation(state.current_player)
    aid = next(i for i in state.legal_action_ids()
               if isinstance(ACTIONS[i], Play) and ACTIONS[i].length == 1)
    start = ACTIONS[aid].start
    f = enc.action_features(obs, aid)
    assert f[kk.F_KIND] == 1.0 and f[kk.F_START + start] == 1.0 and f[kk.F_LENGTH] == 1.0
    assert f[kk.F_PLAYED + obs.hand[start] - 1] == 1.0
    after = f[kk.F_AFTER:kk.F_SIZE].reshape(kk.MAX_HAND, kk.CARDS)
    rest = list(obs.hand[:start] + obs.hand[start + 1:])
    assert [int(np.argmax(r)) + 1 for r in after[: len(rest)]] == rest
    assert not after[len(rest):].any()


def test_decision_refuses_tokens_outside_the_mask() -> None:
    game = load_game("krass-kariert", 4)
    state = game.new_initial_state(3)
    enc = encoding_for(game)
    decision = enc.decision(state.observation(state.current_player), state.legal_action_ids())
    mask = decision.mask()
    assert sorted(np.flatnonzero(mask).tolist()) == sorted(state.legal_action_ids())
    bad = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalActionError) as info:
        decision.choose(bad)
    assert info.value.code == "action.illegal"
    assert decision.choose(state.legal_action_ids()[0]) == state.legal_action_ids()[0]


def test_game_without_encoding_is_refused() -> None:
    class Fake:
        class spec:
            name = "no-such-game"

    with pytest.raises(UnknownGameError):
        encoding_for(Fake())


@pytest.mark.parametrize("players", [2, 3, 4])
def test_casino_encoding_unchanged_when_hidden_cards_are_redealt(players: int) -> None:
    """Casino's sample_world keeps what plays reveal (a builder holds the build's value);
    re-dealing may change nothing in any seat's vector, nor the mover's token sequences."""
    game = load_game("casino", players)
    enc = encoding_for(game)
    rng = random.Random(players)
    state = game.new_initial_state(77)
    checked = 0
    step = 0
    while not state.is_terminal() and step < 120:
        ids = state.legal_action_ids()
        if step % 6 == 0:
            for seat in range(players):
                obs = state.observation(seat)
                world = game.sample_world(obs, random.Random(step))
                other = world.observation(seat)
                assert np.array_equal(enc.encode(other), enc.encode(obs))
                if seat == state.current_player:
                    assert world.legal_action_ids() == ids
                    assert [enc.tokens(other, a) for a in ids] == [enc.tokens(obs, a)
                                                                  for a in ids]
                checked += 1
        state.apply_id(ids[rng.randrange(len(ids))])
        step += 1
    assert checked >= 20


def test_casino_tokens_end_with_confirm_and_decode_to_the_action() -> None:
    from kartentisch.rl.encodings import casino as ce

    game = load_game("casino", 2)
    enc = encoding_for(game)
    state = game.new_initial_state(3)
    obs = state.observation(state.current_player)
    ids = state.legal_action_ids()
    sequences = {enc.tokens(obs, a): a for a in ids}
    assert len(sequences) == len(ids)  # one sequence per action
    for seq, aid in sequences.items():
        assert seq[-1] == ce.CONFIRM and seq[0] < ce.CODE_BASE
        decision = enc.decision(obs, ids)
        for token in seq[:-1]:
            assert decision.mask()[token] == 1
            assert decision.choose(token) is None
        assert decision.choose(seq[-1]) == aid


def test_krumme20_side_counts_fit_the_byte_builders_digits() -> None:
    """The byte builder packs the known sides by number as digits in base ``RADIX``: no
    number may lie on ``RADIX`` cards or more of any deck (each card shows one side up and
    one down, so a count of up or of down sides is at most the cards bearing the number),
    and the packed blocks are indexed by up to three digits."""
    from kartentisch.games.krumme20.cards import DECKS, deck_pairs
    from kartentisch.rl.fast import k20_bytes

    for deck in DECKS:
        for number in range(6):
            bearing = sum(1 for a, b in deck_pairs(deck) if number in (a, b))
            assert 0 < bearing < k20_bytes.RADIX, (deck, number)
    assert len(k20_bytes.ALL3) == len(k20_bytes.ABL3) == k20_bytes.LOW == k20_bytes.RADIX ** 3


@pytest.mark.parametrize(("players", "peek_own", "teams"),
                         [(2, False, "none"), (3, True, "none"), (6, False, "none"),
                          (4, True, "pairs"), (6, True, "trios")])
def test_krumme20_encoding_unchanged_when_unknown_sides_are_redealt(players: int,
                                                                    peek_own: bool,
                                                                    teams: str) -> None:
    """A side nobody (or only its owner) has seen must not show in anybody else's vector;
    in the team variant not in a teammate's either."""
    game = load_game("krumme20", players, {"peek_own": peek_own, "teams": teams})
    enc = encoding_for(game)
    rng = random.Random(players)
    state = game.new_initial_state(5)
    checked = 0
    step = 0
    while not state.is_terminal() and step < 150:
        ids = state.legal_action_ids()
        if step % 5 == 0:
            for seat in range(players):
                obs = state.observation(seat)
                world = game.sample_world(obs, random.Random(step))
                assert np.array_equal(enc.encode(world.observation(seat)), enc.encode(obs))
                if seat == state.current_player:
                    assert world.legal_action_ids() == ids
                checked += 1
        state.apply_id(ids[rng.randrange(len(ids))])
        step += 1
    assert checked >= 20


# ----------------------------------------------------------------------------- fast path
# The environments encode through ``state_entries`` (the state's fields the seat may know)
# instead of building the observation; it must give the reference vector bit for bit.

_FAST_CASES = [("krass-kariert", n, {}) for n in (3, 4, 5)] + [
    ("casino", n, {}) for n in (2, 3, 4)] + [
    ("krumme20", n, {}) for n in (2, 3, 4, 5, 6)] + [("krumme20", 3, {"peek_own": True})] + [
    ("krumme20", 4, {"teams": "pairs"}), ("krumme20", 6, {"teams": "pairs", "peek_own": True}),
    ("krumme20", 6, {"teams": "trios"})]
_FAST_CASES.append(("krumme20", 3, {"compensation": "take", "three_zeros_action": "revealed",
                                    "last_card_crosswise": "five_only"}))
"""Krumme20's readings of the rule sheet (issue 30) change what the state holds, never the
vector's layout: the fast path reads them from the state like everything else."""


def _random_states(name: str, players: int, options: dict, games: int, seed: int):
    """Every position of ``games`` random games (the terminal one included)."""
    game = load_game(name, players, options)
    rng = random.Random(seed)
    for g in range(games):
        state = game.new_initial_state(seed * 1000 + g)
        while True:
            yield game, state
            if state.is_terminal():
                break
            ids = state.legal_action_ids()
            state.apply_id(ids[rng.randrange(len(ids))])


@pytest.mark.parametrize(("name", "players", "options"), _FAST_CASES)
def test_fast_path_is_bit_identical_to_the_reference(name: str, players: int,
                                                     options: dict) -> None:
    """Every seat's vector from the state equals the encoding of its observation, bit for
    bit (float32 bytes), at every position of random games; with an offset the entries
    shift; Casino with a random prefix of the mover's tokens too."""
    enc = None
    checked = 0
    rng = random.Random(players)
    for n, (game, state) in enumerate(_random_states(name, players, options, 3, players)):
        enc = enc or encoding_for(game)
        for seat in range(players):
            obs = state.observation(seat)
            prefix: tuple[int, ...] = ()
            if not enc.single_token and seat == state.current_player and n % 2:
                ids = state.legal_action_ids()
                seq = enc.tokens(obs, ids[rng.randrange(len(ids))])
                prefix = seq[: rng.randrange(len(seq))]
            ref = enc.encode(obs, prefix)
            fast = enc.encode_state(state, seat, prefix)
            assert ref.tobytes() == fast.tobytes(), (name, players, n, seat)
            if not prefix:  # the vector joined from bytes blocks (or the default's bytes)
                assert enc.state_bytes(state, seat) == ref.tobytes(), (name, players, n, seat)
            if n % 13 == 0:
                ones, where, values = enc.state_entries(state, seat, prefix, offset=5)
                rebuilt = np.zeros(enc.obs_size + 5, dtype=np.float32)
                rebuilt[ones] = 1.0
                rebuilt[where] = values
                assert rebuilt[5:].tobytes() == ref.tobytes()
            checked += 1
    assert checked > 300


@pytest.mark.parametrize("players", [3, 4, 5])
def test_krass_kariert_vectors_with_a_stepped_memo_are_the_reference(players: int) -> None:
    """The batch's rows build Krass Kariert's vectors with a memo per game that carries
    the round's decoded acts, the Ablagestapel's count and the other hands' blocks from one
    vector to the next (``kk_bytes.Memo(True)``): at every position of random games, for
    every seat (several vectors of one position, the seat to act last as in the rows), the
    bytes are the reference encoding's, and the memo did carry over (it covers the whole
    log and pile after each vector)."""
    from kartentisch.rl.fast import kk_bytes

    game = load_game("krass-kariert", players)
    enc = encoding_for(game)
    order, pads = enc.byte_builder_args()
    rng = random.Random(players)
    carried = 0
    for g in range(3):
        state = game.new_initial_state(77 + g)
        memo = kk_bytes.Memo(True)
        while not state.is_terminal():
            current = state.current_player
            for seat in [*(s for s in range(players) if s != current), current]:
                carried += memo.log is state.log_words and memo.pile is state.discard
                data = kk_bytes.state_bytes(state, seat, order[seat], pads, memo)
                assert data == enc.encode(state.observation(seat)).tobytes(), (g, seat)
                assert memo.end == len(state.log_words) and memo.piled == len(state.discard)
            ids = state.legal_action_ids()
            state.apply_id(ids[rng.randrange(len(ids))])
    assert carried > 300


@pytest.mark.parametrize(("name", "players", "options"), _FAST_CASES)
def test_fast_path_unchanged_when_hidden_cards_are_redealt(name: str, players: int,
                                                          options: dict) -> None:
    """The leak test on the fast path: a world re-dealt consistently with a seat's knowledge
    (game.sample_world) gives that seat the same vector, read from the world's state."""
    checked = 0
    for n, (game, state) in enumerate(_random_states(name, players, options, 2, 7 + players)):
        if n % 5 or state.is_terminal():
            continue
        enc = encoding_for(game)
        for seat in range(players):
            vec = enc.encode_state(state, seat)
            for k in range(2):
                world = game.sample_world(state.observation(seat), random.Random(k + n))
                assert enc.encode_state(world, seat).tobytes() == vec.tobytes(), (n, seat)
                assert enc.state_bytes(world, seat) == vec.tobytes(), (n, seat)
            checked += 1
    assert checked > 20


def test_fast_path_redeal_has_teeth() -> None:
    """The worlds of the leak test above really differ in what the seat cannot see, and the
    fast path does see a difference where the seat could (its own hand)."""
    game = load_game("krass-kariert", 4)
    state = game.new_initial_state(11)
    enc = encoding_for(game)
    worlds = [game.sample_world(state.observation(0), random.Random(k)) for k in range(4)]
    assert len({tuple(map(tuple, w.hands[1:])) for w in worlds}) > 1
    other = state.clone()
    other.hands[0] = list(reversed(other.hands[0]))  # a different own hand order
    assert enc.encode_state(other, 0).tobytes() != enc.encode_state(state, 0).tobytes()
    assert enc.state_bytes(other, 0) != enc.state_bytes(state, 0)


@pytest.mark.parametrize("players", [2, 4])
def test_casino_tokens_are_the_action_factors(players: int) -> None:
    """Casino's token sequence of an id is its factors (card, code, the loose cards of the
    mask ascending) then confirm, for every legal id along random games, computed afresh
    and from the encoding's cache alike."""
    from kartentisch.games.casino import actions as acts
    from kartentisch.rl.encodings import casino as ce

    checked = 0
    for n, (game, state) in enumerate(_random_states("casino", players, {}, 2, 40 + players)):
        if state.is_terminal() or n % 3:
            continue
        enc = encoding_for(game)
        for aid in state.legal_action_ids():
            card, code, mask = acts.action_factors(game.action_from_id(aid))
            loose = [c for c in range(52) if mask >> c & 1]
            expected = (card, ce.CODE_BASE + code, *(ce.LOOSE_BASE + c for c in loose),
                        ce.CONFIRM)
            ce._TOKENS.pop(aid, None)
            assert enc.tokens(None, aid) == expected
            assert enc.tokens(None, aid) == expected  # now from the cache
            checked += 1
    assert checked > 100


def test_casino_tokens_decode_every_segment_of_the_id_space() -> None:
    """``casino_bytes.tokens`` (a bisection over the segments' starts, the loose cards read
    a byte of the mask at a time) gives every id's factors: the first and last id of every
    segment (card and code) and random ids inside it, so each card, code, shift and loose
    card of the id space is decoded at least once."""
    import random

    from kartentisch.games.casino import actions as acts
    from kartentisch.rl.encodings import casino as ce
    from kartentisch.rl.fast import casino_bytes

    rng = random.Random(13)
    starts = casino_bytes.STARTS
    loose_seen: set[int] = set()
    for k in range(len(starts) - 1):
        first, last = starts[k], starts[k + 1] - 1
        for aid in {first, last, rng.randint(first, last), rng.randint(first, last)}:
            card, code, mask = acts.action_factors(acts.action_from_id(aid))
            loose = [c for c in range(52) if mask >> c & 1]
            loose_seen.update(loose)
            assert casino_bytes.tokens(aid) == (card, ce.CODE_BASE + code,
                                                *(ce.LOOSE_BASE + c for c in loose),
                                                ce.CONFIRM), aid
    assert loose_seen == set(range(52))
    ids = (starts[0], starts[1], starts[-2])
    assert casino_bytes.sequences(ids) == [casino_bytes.tokens(a) for a in ids]


@pytest.mark.parametrize(("name", "players"), [("krass-kariert", 3), ("krass-kariert", 4),
                                               ("krass-kariert", 5), ("krumme20", 3)])
def test_write_rows_is_bit_identical_to_the_reference(name: str, players: int) -> None:
    """Many rows at once (Krass Kariert's vectorized path; Krumme20 the default row by row)
    give each row the reference vector of its state and seat, any seat, bit for bit."""
    rng = random.Random(players)
    states, seats = [], []
    for _game, state in _random_states(name, players, {}, 2, 60 + players):
        states.append(state.clone())
        seats.append(rng.randrange(players))
    enc = encoding_for(load_game(name, players))
    out = np.zeros((len(states), enc.obs_size), dtype=np.float32)
    enc.write_rows(states, seats, out)
    for row, (state, seat) in enumerate(zip(states, seats, strict=True)):
        assert out[row].tobytes() == enc.encode(state.observation(seat)).tobytes(), row
    assert len(states) > 100


def test_krumme20_team_fields() -> None:
    """The team variant fills the team fields (who is in my team, the teams' points) and
    keeps the size; without teams they stay zero, so base-game weights read the same."""
    from kartentisch.rl.encodings.krumme20 import OBS_SIZE, TEAM

    solo = load_game("krumme20", 4)
    # with the fouls' literal reward the team game's moves are the base game's
    team = load_game("krumme20", 4, {"teams": "pairs", "team_foul_reward": True})
    a, b = solo.new_initial_state(4), team.new_initial_state(4)
    rng = random.Random(4)
    for _ in range(120):
        if a.is_terminal():
            break
        ids = a.legal_action_ids()
        assert ids == b.legal_action_ids()
        aid = ids[rng.randrange(len(ids))]
        a.apply_id(aid)
        b.apply_id(aid)
    enc_a, enc_b = encoding_for(solo), encoding_for(team)
    assert enc_a.obs_size == enc_b.obs_size == OBS_SIZE
    for seat in range(4):
        va = enc_a.encode(a.observation(seat))
        vb = enc_b.encode(b.observation(seat))
        assert not va[TEAM:].any()
        assert np.array_equal(va[:TEAM], vb[:TEAM])  # everything else as in the base game
        # seats 0+2 and 1+3: the seat itself and the one two places on are in my team
        assert list(vb[TEAM:TEAM + 6]) == [1.0, 0.0, 1.0, 0.0, 0.0, 0.0]
        mine = b.team_scores()[seat % 2]
        other = b.team_scores()[1 - seat % 2]
        assert vb[TEAM + 6] == np.float32(min(mine / 80.0, 1.0))
        assert vb[TEAM + 7] == np.float32(min(other / 80.0, 1.0))
        assert not vb[TEAM + 8:].any()
