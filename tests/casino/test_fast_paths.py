"""The speed paths of Casino agree with the general ones (issue 14).

* ``is_legal_id`` decides common moves on a table without builds without listing every
  move; it must say exactly what membership in ``legal_action_ids()`` says;
* ``apply`` knows the actions ``legal_actions()`` offered (and parsed ones) by the id
  they carry; equal objects of its own go the general way, and offered objects at a later
  position are played when legal by value and refused when not, giving the same state
  or error as the general way;
* ``parse_action`` reads the canonical notation without regular expressions; it must read
  what the general parser reads and refuse what it refuses, with the same error.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator
from dataclasses import FrozenInstanceError

import pytest

from kartentisch.core.errors import KartentischError
from kartentisch.games.casino import Casino, CasinoState
from kartentisch.games.casino import actions as acts
from kartentisch.games.casino.cards import VALUES
from kartentisch.games.casino.movegen import legal_ids, make_action, make_actions

OPTIONS = [{}, {"trail_when_capture_possible": False}, {"face_cards_capture_all": True}]


def positions(options: dict[str, object], games: int = 3) -> Iterator[CasinoState]:
    game = Casino(2, options)
    for g in range(games):
        rng = random.Random(g)
        state = game.new_initial_state(70 + g)
        while not state.is_terminal():
            yield state
            ids = state.legal_action_ids()
            state.apply_id(ids[rng.randrange(len(ids))])


def candidates(state: CasinoState, rng: random.Random) -> set[int]:
    """Legal ids and near misses: every trail, captures of random loose sets with each card
    of the hand or of the deck."""
    out = set(state.legal_action_ids())
    loose = [c for c in state.loose if VALUES[c]]
    for card in [*state.hands[state.current_player], *state.deck[:3]]:
        out.add(acts.action_id(acts.Trail(card)))
        for _ in range(6):
            taken = tuple(sorted(c for c in loose if rng.random() < 0.4))
            with contextlib.suppress(KartentischError):  # a face card with numerals
                out.add(acts.action_id(acts.Capture(card, taken)))
    return out


def segment_samples(seed: int) -> list[int]:
    """The first, the last and a random id of every segment of the id space, ascending."""
    rng = random.Random(seed)
    starts = acts.SEG_STARTS
    return sorted({aid for k in range(len(starts) - 1) if starts[k + 1] > starts[k]
                   for aid in (starts[k], starts[k + 1] - 1,
                               rng.randrange(starts[k], starts[k + 1]))})


@pytest.mark.parametrize("options", OPTIONS)
def test_is_legal_id_agrees_with_the_list(options: dict[str, object]) -> None:
    rng = random.Random(1)
    checked = 0
    for state in positions(options, games=1):
        legal = set(legal_ids(state))
        for aid in candidates(state, rng):
            fresh = state.clone()
            fresh._legal = None  # decide without the list
            assert fresh.is_legal_id(aid) == (aid in legal), acts.action_from_id(aid)
            checked += 1
    assert checked > 500


def test_offered_actions_are_known_only_for_their_position() -> None:
    """``apply`` knows the objects ``legal_actions()`` handed out by the id they carry;
    at a later position the same object is played when it is legal by value and refused
    with the general error (the state left as it was) when not, and a clone made before
    the play takes it like the original."""
    game = Casino(2)
    rng = random.Random(3)
    refused = replayed = 0
    for g in range(4):
        state = game.new_initial_state(90 + g)
        while not state.is_terminal():
            offered = state.legal_actions()
            assert state.legal_actions() == offered  # asked again: the same actions
            assert [acts.action_id(a) for a in offered] == list(state.legal_action_ids())
            before = state.clone()
            pick = offered[rng.randrange(len(offered))]
            state.apply(pick)
            twin = before.clone()
            twin.apply(pick)  # the clone shares the offered objects
            assert twin.to_json() == state.to_json()
            if state.is_terminal():
                break
            legal = set(state.legal_action_ids())
            for stale in offered:  # objects offered one position earlier
                trial = state.clone()
                if acts.action_id(stale) in legal:
                    trial.apply(stale)
                    general = state.clone()
                    general.apply_id(acts.action_id(stale))
                    assert trial.to_json() == general.to_json()
                    replayed += 1
                else:
                    with pytest.raises(KartentischError) as error:
                        trial.apply(stale)
                    assert error.value.code == state.why_illegal(stale).code
                    assert trial.to_json() == state.to_json()  # left as it was
                    refused += 1
    assert refused > 100  # (a stale object legal by value is rare: the same seat to move)


def test_apply_with_an_equal_object_gives_the_same_state() -> None:
    for state in positions({}, games=1):
        aid = state.legal_action_ids()[-1]
        shared = state.clone()
        own = state.clone()
        shared.apply(state.legal_actions()[-1])
        own.apply(acts.action_from_id(aid))  # a new, equal object
        assert shared.to_json() == own.to_json()


@pytest.mark.parametrize("options", OPTIONS)
def test_canonical_notation_reads_like_the_general_parser(options: dict[str, object]) -> None:
    game = Casino(2, options)
    for state in positions(options, games=2):
        for action in state.legal_actions():
            text = acts.format_action(action)
            assert acts.parse_canonical(text) == action
            assert game.parse_action(text, state) == action
        # illegal canonical moves get the general parser's error
        for card in state.deck[:2]:
            text = acts.format_action(acts.Trail(card))
            with pytest.raises(KartentischError) as fast:
                game.parse_action(text, state)
            with pytest.raises(KartentischError) as slow:
                game.parse_action(text + " ", state)  # not canonical: the general way
            assert (fast.value.code, fast.value.params) == (slow.value.code, slow.value.params)


@pytest.mark.parametrize("text", ["7h x", "7h x 4d 3c", "7h x 3c 3c", "7h + 3c [8] = 11",
                                  "Zz -", "7h", "7h - -", "7h x [8] 3c", "7h + = 7"])
def test_non_canonical_texts_are_left_to_the_general_parser(text: str) -> None:
    action = acts.parse_canonical(text)
    if action is not None:  # readable, but then its notation is the text itself or no id
        with pytest.raises(KartentischError):
            acts.action_id(action)


def test_make_action_is_action_from_id() -> None:
    """The move generator's unchecked decoder makes the action the checked one makes, for
    the first, the last and random ids of every segment of the id space."""
    checked = 0
    for aid in segment_samples(5):
        made, general = make_action(aid), acts.action_from_id(aid)
        assert made == general and type(made) is type(general), aid
        assert hash(made) == hash(general)
        with pytest.raises(FrozenInstanceError):
            made.card = 0  # type: ignore[misc]
        checked += 1
    assert checked > 1000


def test_offered_objects_have_the_class_of_their_id() -> None:
    """An offered object that is not shared (made by ``OFFERS.__missing__`` from the class
    runs' bucket table) has the class of the action of its id, for the first, the last
    and random ids of every segment, in buckets of one class and in mixed ones."""
    mixed = 0
    for aid in segment_samples(6):
        offered = acts.OFFERS[aid]
        assert type(offered) is type(acts.action_from_id(aid)), aid
        assert acts.GET_AID(offered) == aid and offered == acts.action_from_id(aid)
        mixed += acts._BUCKET_CLASS[aid >> acts._RUN_SHIFT] is None
    assert mixed > 100


def test_loose_cards_are_listed_from_the_mask_when_read() -> None:
    """The plays change only the loose cards' mask; ``state.loose`` lists the cards of the
    mask, ascending, whenever it is read, in a clone and a pickled copy as well, and a
    clone's list is its own."""
    import pickle

    before: tuple[CasinoState, list[int]] | None = None
    for state in positions({}, games=4):
        if before is not None:  # the clone of the last position stayed as it was
            assert before[0].loose == before[1]
        mask = state._lmask
        expected = [c for c in range(52) if mask >> c & 1]
        assert state.loose == expected
        other = state.clone()
        assert other.loose == expected and other.loose is not state.loose
        assert pickle.loads(pickle.dumps(state)).loose == expected
        before = (other, expected)


def test_offered_actions_are_decoded_only_when_read() -> None:
    """``make_actions`` (what ``legal_actions()`` offers) gives, for ids of every segment,
    objects that behave as the decoded action in every way a caller can see: fields,
    equality both ways, hash, repr, frozen, pickling and copying; names that are no field
    raise ``AttributeError`` as for any action. Playing an offered object never reads its
    fields (the state plays it by its id); the shared ones are whole objects."""
    import copy
    import pickle

    ids = segment_samples(6)
    offered = make_actions(tuple(ids))
    for aid, action in zip(ids, offered, strict=True):
        general = acts.action_from_id(aid)
        assert type(action) is type(general)
        assert general == action and action == general and hash(action) == hash(general)
        assert repr(action) == repr(general), aid
        with pytest.raises(FrozenInstanceError):
            action.card = 0  # type: ignore[misc]
    shells = make_actions(tuple(ids))  # fresh ones: nothing read yet
    for aid, action in zip(ids, shells, strict=True):
        with pytest.raises(AttributeError):
            action.colour  # type: ignore[union-attr]  # noqa: B018
        assert pickle.loads(pickle.dumps(action)) == acts.action_from_id(aid)
        assert copy.deepcopy(action) == copy.copy(action) == acts.action_from_id(aid)
    with pytest.raises(AttributeError):
        acts.Trail(3).colour  # type: ignore[attr-defined]  # noqa: B018

    pairs = set(acts.pair_ids())  # shared too
    game = Casino(2)
    for g in range(3):
        state = game.new_initial_state(40 + g)
        twin = state.clone()
        rng = random.Random(g)
        while not state.is_terminal():
            legal = state.legal_actions()
            k = rng.randrange(len(legal))
            pick = legal[k]
            state.apply(pick)
            twin.apply_id(twin.legal_action_ids()[k])
            assert state.to_json() == twin.to_json()
            aid = acts.GET_AID(pick)  # every offered action carries its id
            if len(getattr(acts.action_from_id(aid), "loose", ())) <= 1 or aid in pairs:
                continue  # a shared object (trails, moves of one loose card): maybe read
            with pytest.raises(AttributeError):  # made for this position: never decoded
                object.__getattribute__(pick, "card")
            assert acts.action_id(pick) == aid
        assert state.history == twin.history


def test_groups_on_the_table_are_the_groups_using_its_values() -> None:
    """The move tables' groups for a table (built value by value and cached) are exactly
    the groups of v whose values all lie on the table."""
    from kartentisch.games.casino import movegen

    ones = movegen._ONES
    for v in range(1, 11):
        for support_bits in range(1 << v):
            support = sum(1 << 4 * k for k in range(v) if support_bits >> k & 1)
            direct = sorted(g for g in movegen._GROUPS[v]
                            if not (g | g >> 1 | g >> 2) & ones & ~support)
            assert sorted(movegen._on_table(support, v)) == direct, (v, bin(support_bits))


def test_deal_order_is_the_general_shuffle() -> None:
    """The pack's fast shuffle (sorting by the words' top 16 bits) deals what the seeding
    module's shuffle deals, also for the packs where two cards share those bits (the fast
    path then hands over to the general one)."""
    import hashlib
    from array import array

    from kartentisch.core.rng import shuffled
    from kartentisch.games.casino.cards import DECK
    from kartentisch.games.casino.state import deal_order

    ties = 0
    for seed in [*range(1500), 2**53 - 1, 12345678901234]:
        for pack in (0, 1, 7):
            assert deal_order(seed, pack) == shuffled(DECK, seed, "casino", pack), (seed, pack)
            digest = hashlib.shake_128(f"{seed}/casino/{pack}".encode()).digest(416)
            ties += len(set(array("H", digest)[3::4])) < 52
    assert ties > 20  # the general path was taken too


def test_shared_offered_actions_are_the_moves_of_few_loose_cards() -> None:
    """A move with at most one loose card is one object shared by every position that
    offers it, and so is a move with two loose numerals whose values fit
    (``actions.pair_ids``); any other move is a new object at each position. The objects
    come from one table by id (``actions.OFFERS``): it keeps only the shared
    moves, and a kept object is the action of its key."""
    game = Casino(2)
    rng = random.Random(8)
    pairs = set(acts.pair_ids())
    fresh = shared_pairs = 0
    for g in range(3):
        state = game.new_initial_state(70 + g)
        while not state.is_terminal():
            offered = state.legal_actions()
            for aid, action in zip(state.legal_action_ids(), offered, strict=True):
                again = make_actions((aid,))[0]
                loose = len(getattr(acts.action_from_id(aid), "loose", ()))
                if loose <= 1 or aid in pairs:
                    assert again is action
                    shared_pairs += loose == 2
                else:
                    assert again is not action and again == action
                    fresh += 1
            state.apply(offered[rng.randrange(len(offered))])
    assert fresh > 20
    assert shared_pairs > 20
    assert sorted(acts.OFFERS) == sorted(acts.shareable_ids() + acts.pair_ids())
    for aid, action in list(acts.OFFERS.items()):
        general = acts.action_from_id(aid)
        assert len(getattr(general, "loose", ())) <= 2
        assert action == general and acts.GET_AID(action) == aid


def test_pair_ids_are_the_fitting_two_card_sets() -> None:
    """``actions.pair_ids`` lists, ascending, exactly the captures and the builds (not
    joining a standing build) with two loose numerals that the move generator's set search
    answers for a table of just those two cards."""
    from kartentisch.games.casino.movegen import sets_for

    pairs = acts.pair_ids()
    assert pairs == sorted(set(pairs)) and not set(pairs) & set(acts.shareable_ids())
    found = []
    for k in range(len(acts.SEG_STARTS) - 1):
        start, card, code, _shift = acts.SEG_ROWS[k]
        if not VALUES[card] or code == acts.CODE_TRAIL or code >= acts.CODE_BUILD_MERGE:
            continue  # (builds joining a standing build are not shared)
        if code <= acts.CODE_CAPTURE_BUILD:
            v, w = VALUES[card], 0
        else:
            v = code - acts.CODE_BUILD + 1
            w = VALUES[card] if VALUES[card] != v else 0
            if v < VALUES[card]:
                continue
        loose = [c for c in range(40) if c != card]
        for i, a in enumerate(loose):
            for b in loose[i + 1:]:
                mask = 1 << a | 1 << b
                if mask in sets_for(mask, v, w):
                    found.append(start + acts.compress(mask, card))
    assert sorted(found) == pairs and len(pairs) == 10732
    for aid in pairs[::97]:
        assert len(acts.action_from_id(aid).loose) == 2  # type: ignore[union-attr]


def test_an_action_carrying_a_legal_id_is_played_by_it() -> None:
    """A parsed action (``Casino.parse_action``: a shared object carrying its id) and an
    offered one are played like ``apply_id`` of that id; an action made by the caller
    (no id carried) goes the general way to the same state; an object that is no action
    gets the general error and changes nothing."""
    from kartentisch.core.errors import InvalidActionError

    game = Casino(2)
    rng = random.Random(9)
    state = game.new_initial_state(12)
    while not state.is_terminal():
        ids = state.legal_action_ids()
        aid = ids[rng.randrange(len(ids))]
        text = acts.format_action(acts.action_from_id(aid))
        parsed = game.parse_action(text, state)
        assert acts.GET_AID(parsed) == aid
        with pytest.raises(AttributeError):
            acts.GET_AID(acts.action_from_id(aid))  # made by the caller: no id carried
        by_id, by_object = state.clone(), state.clone()
        by_id.apply_id(aid)
        by_object.apply(acts.action_from_id(aid))
        before = state.to_json()
        with pytest.raises(InvalidActionError):
            state.apply("7h -")  # type: ignore[arg-type]
        assert state.to_json() == before
        state.apply(parsed)
        assert state.to_json() == by_id.to_json() == by_object.to_json()


def test_joins_are_the_groups_of_the_rest() -> None:
    """The loose cards that a card of value w joins into one group of v are the groups of
    v - w: the move generator asks for those (:func:`movegen._on_table`) instead of
    filtering every partition of v that holds w."""
    from kartentisch.games.casino import movegen

    for v in range(2, 11):
        for w in range(1, v):
            assert sorted(movegen._JOINS[v * 11 + w]) == sorted(movegen._GROUPS[v - w])


def test_spread_answers_are_the_squeezed_sets() -> None:
    """For tables with at most one card of each value, the kept answers (filled vectors,
    squeezed for the playing card) give, with the table squeezed for any card of the
    playing value, exactly the squeezed sets of ``sets_for``, ascending."""
    from kartentisch.games.casino import movegen

    rng = random.Random(5)
    for _ in range(400):
        v = rng.randrange(1, 11)
        w = rng.randrange(0, v)
        values = [k for k in range(1, 11) if rng.random() < 0.5]
        loose = sum(1 << 4 * (k - 1) + rng.randrange(4) for k in values)
        loose |= rng.randrange(1 << 12) << 40  # face cards: never part of a set
        n = movegen.counts_of(loose) & movegen._LOW[v]
        key = n << 8 | v << 4 | w
        xs = movegen._SPREAD.get(key) or movegen._spread(key)
        for suit in range(4):
            card = 4 * ((w or v) - 1) + suit
            if loose >> card & 1:
                continue
            low = (1 << card) - 1
            lc = (loose + (loose & low)) >> 1
            want = [(m + (m & low)) >> 1 for m in movegen.sets_for(loose, v, w)]
            assert [lc & x for x in xs] == want == sorted(want), (v, w, bin(loose), card)


@pytest.mark.parametrize("options", [*OPTIONS, {"trail_ban": "while_build_stands"},
                                     {"owner_keeps_capture_card": False}])
def test_legal_ids_ascend_without_a_sort(options: dict[str, object]) -> None:
    """The generator makes the ids in ascending order (it no longer sorts them), with and
    without builds on the table, under the options that change which moves are offered."""
    seen_builds = 0
    for state in positions(options, games=2):
        ids = legal_ids(state)
        assert list(ids) == sorted(set(ids)), (state.hands[state.current_player], state.loose)
        seen_builds += bool(state.builds)
    assert seen_builds > 50


def _splits(values: list[int], v: int) -> bool:
    """Whether ``values`` split into groups each adding up to ``v`` (a plain search)."""
    if not values:
        return True
    first, rest = values[0], values[1:]

    def grow(total: int, left: list[int], start: int) -> bool:
        if total == v:
            return _splits(left, v)
        for i in range(start, len(left)):
            if total + left[i] <= v and grow(total + left[i], left[:i] + left[i + 1:], i):
                return True
        return False

    return grow(first, rest, 0)


def test_sets_for_is_the_plain_search_also_with_repeated_values() -> None:
    """``sets_for`` against every subset of the loose numerals, on tables that hold two or
    more cards of a value (answered on the cards) and tables that do not (from the spread
    tables), for captures and builds."""
    from itertools import combinations

    from kartentisch.games.casino.movegen import sets_for

    rng = random.Random(11)
    for trial in range(300):
        count = rng.randrange(1, 8)
        if trial % 2:  # several cards of few values
            pool = [c for c in range(40) if VALUES[c] <= rng.randrange(3, 11)]
        else:
            pool = list(range(40))
        cards = rng.sample(pool, min(count, len(pool)))
        loose = sum(1 << c for c in cards) | 1 << 44  # a face card too: never in a set
        v = rng.randrange(1, 11)
        w = rng.randrange(0, v)
        usable = [c for c in cards if VALUES[c] <= v]
        want = sorted(
            sum(1 << c for c in subset)
            for k in range(1, len(usable) + 1)
            for subset in combinations(usable, k)
            if _splits(sorted([VALUES[c] for c in subset] + ([w] if w else []),
                              reverse=True), v))
        assert list(sets_for(loose, v, w)) == want, (sorted(cards), v, w)


@pytest.mark.parametrize("options", [
    {}, {"trail_when_capture_possible": False}, {"trail_ban": "while_build_stands"},
    {"owner_keeps_capture_card": False},
    {"owner_keeps_capture_card": False, "trail_when_capture_possible": False,
     "trail_ban": "while_build_stands"},
    {"face_cards_capture_all": True, "trail_when_capture_possible": False}])
def test_trail_rule_is_one_predicate(options: dict[str, object]) -> None:
    """The move generator offers the trail of a card exactly when
    :func:`~kartentisch.games.casino.table.trail_refusal` (the predicate the explanation
    words) allows it, but for its one exception: a player left no move at all may trail
    any card. A refused trail is explained with the predicate's code."""
    from kartentisch.games.casino.table import trail_refusal

    seen: dict[str, int] = {}
    for state in positions(options, games=2):
        legal = set(legal_ids(state))
        hand = state.hands[state.current_player]
        trails = {card: acts.action_id(acts.Trail(card)) for card in hand}
        refusals = {card: trail_refusal(state, card) for card in hand}
        if legal == set(trails.values()) and all(refusals.values()):
            seen["no move but trails"] = seen.get("no move but trails", 0) + 1
            continue
        for card, aid in trails.items():
            refusal = refusals[card]
            assert (aid in legal) == (refusal is None), (options, card, refusal, state.builds)
            if refusal is not None:
                error = state.why_illegal(acts.Trail(card))
                assert (error.code, {k: error.params[k] for k in refusal[1]}) == refusal
                seen[refusal[0]] = seen.get(refusal[0], 0) + 1
    assert sum(seen.values()) > 20, seen


@pytest.mark.parametrize("raising", ["none", "single", "any"])
def test_raise_rule_is_one_predicate(raising: str) -> None:
    """The move generator offers raises of exactly the builds that
    :func:`~kartentisch.games.casino.table.raise_refusal` (the predicate the explanation
    words) lets through: with every other condition of a raise met (a card from the hand
    makes a value of at most 10 that the player holds another card of, the owner's duty
    off), a raise is offered when the predicate allows it and refused with its code when
    not. Random positions, where some players try raises that the rule forbids."""
    from kartentisch.games.casino.table import raise_refusal

    seen: dict[str, int] = {}
    for state in positions({"raising": raising, "owner_keeps_capture_card": False}, games=3):
        legal = set(legal_ids(state))
        hand = state.hands[state.current_player]
        for u, build in state.builds.items():
            refusal = raise_refusal(raising, build)
            for card in hand:
                w = u + VALUES[card]
                held = [c for c in hand if c != card and VALUES[c] == w]
                if not VALUES[card] or w > 10 or not held:
                    continue
                raise_ = acts.Build(card, w, (), u, w in state.builds)
                offered = acts.action_id(raise_) in legal
                assert offered == (refusal is None), (raising, raise_, build)
                if refusal is not None:
                    assert state.why_illegal(raise_).code == refusal
                kind = refusal or ("multiple raised" if build.multiple else "raised")
                seen[kind] = seen.get(kind, 0) + 1
    expected = {"none": {"casino.no_raising"},
                "single": {"casino.multiple_not_raised", "raised"},
                "any": {"multiple raised", "raised"}}[raising]
    assert expected <= set(seen), seen


def test_no_capture_rule_is_one_predicate() -> None:
    """With option ``build_without_capture`` off, the move generator offers what it offers
    with the option on, except to a player with no legal capture: only the trails (all of
    them when the trail rules leave none), as
    :func:`~kartentisch.games.casino.table.no_capture_refusal` says; every build it drops
    is explained with the predicate's code."""
    from kartentisch.games.casino.table import no_capture_refusal

    usual = Casino(2, {"owner_keeps_capture_card": False})
    seen = {"captures": 0, "trails only": 0, "builds dropped": 0}
    for state in positions({"build_without_capture": False,
                            "owner_keeps_capture_card": False}, games=3):
        doc = state.to_json()
        free = usual.state_from_json({**doc, "options": usual.options_json()})
        wide = list(free.legal_action_ids())
        kinds = {aid: type(acts.action_from_id(aid)) for aid in wide}
        captures = acts.Capture in kinds.values()
        assert no_capture_refusal(False, captures) == (None if captures else "casino.must_trail")
        legal = list(legal_ids(state))
        if captures:
            assert legal == wide
            seen["captures"] += 1
            continue
        trails = [aid for aid in wide if kinds[aid] is acts.Trail]
        hand = sorted(state.hands[state.current_player])
        assert legal == (trails or [acts.action_id(acts.Trail(c)) for c in hand])
        seen["trails only"] += 1
        for aid in wide:
            if kinds[aid] is acts.Build:
                assert state.why_illegal(acts.action_from_id(aid)).code == "casino.must_trail"
                seen["builds dropped"] += 1
    assert min(seen.values()) > 5, seen
