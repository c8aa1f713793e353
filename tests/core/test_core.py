"""Core protocol pieces that no single game owns."""

import pytest

from kartentisch.core.errors import InvalidRecordError
from kartentisch.core.protocol import Event
from kartentisch.core.records import RECORD_FORMAT, GameRecord


def test_event_json_keeps_kind_and_hides_private_details() -> None:
    event = Event("combination", 2, {"kind": "pair", "high": 5}, {"card": "7"})
    assert event.to_json() == {"kind": "combination", "seat": 2,
                               "data": {"kind": "pair", "high": 5}}
    assert event.for_seat(2).to_json()["data"] == {"kind": "pair", "high": 5, "card": "7"}
    assert event.for_seat(1).to_json()["data"] == {"kind": "pair", "high": 5}
    assert event.for_seat(None).private is None


def test_records_of_the_earlier_format_are_refused_not_misread() -> None:
    """Format 1 records were dealt with the earlier Krass Kariert shuffle: the same seed now
    deals other cards, so replaying them would show another game."""
    old = {"format": "kartentisch-record/1", "game": "krass-kariert", "players": 4,
           "seed": 1, "actions": []}
    with pytest.raises(InvalidRecordError, match="kartentisch-record/1"):
        GameRecord.from_json(old)
    assert GameRecord.from_json({**old, "format": RECORD_FORMAT}).seed == 1


def test_records_name_their_people_optionally() -> None:
    """``names`` (a game night's display names, null for bots) is an optional field beside
    ``seats``: written only when there are names, and records without it still read."""
    base = {"format": RECORD_FORMAT, "game": "casino", "players": 2, "seed": 3,
            "actions": [], "seats": ["human", "heuristic"]}
    plain = GameRecord.from_json(base)
    assert plain.names == [] and "names" not in plain.to_json()
    named = GameRecord.from_json({**base, "names": ["Anna", None]})
    assert named.names == ["Anna", None] and named.to_json()["names"] == ["Anna", None]
    assert GameRecord.from_json(named.to_json()) == named
    for bad, code in ((["Anna"], "record.seats_mismatch"), ("Anna", "record.not_text_list"),
                      ([1, None], "record.not_text_list")):
        with pytest.raises(InvalidRecordError) as caught:
            GameRecord.from_json({**base, "names": bad})
        assert caught.value.code == code


@pytest.mark.parametrize("game_name", ["krass-kariert", "casino", "krumme20"])
@pytest.mark.parametrize("thing", [None, 3, "p1", object()])
def test_format_action_of_a_non_action_raises_the_games_invalid_action_error(
        game_name: str, thing: object) -> None:
    from kartentisch import load_game
    from kartentisch.core.errors import InvalidActionError

    game = load_game(game_name)
    state = game.new_initial_state(seed=1)
    with pytest.raises(InvalidActionError, match=r"is not a .* action"):
        game.format_action(thing, state)  # type: ignore[arg-type]
