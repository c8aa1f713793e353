"""Core protocol pieces that no single game owns."""

from kartentisch.core.protocol import Event


def test_event_json_keeps_kind_and_hides_private_details() -> None:
    event = Event("combination", 2, {"kind": "pair", "high": 5}, {"card": "7"})
    assert event.to_json() == {"kind": "combination", "seat": 2,
                               "data": {"kind": "pair", "high": 5}}
    assert event.for_seat(2).to_json()["data"] == {"kind": "pair", "high": 5, "card": "7"}
    assert event.for_seat(1).to_json()["data"] == {"kind": "pair", "high": 5}
    assert event.for_seat(None).private is None
