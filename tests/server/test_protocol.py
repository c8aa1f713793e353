"""The message protocol on its own: strict decoding, reason codes, and its documentation."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from kartentisch.core.reasons import render
from kartentisch.server.protocol import (
    MAX_MESSAGE_BYTES,
    MESSAGE_TYPES,
    PROTOCOL_VERSION,
    SERVER_REASONS,
    Hello,
    Move,
    ProtocolError,
    decode_message,
    error_message,
    refuse,
)
from kartentisch.server.reasons import NIGHT_REASONS

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def test_well_formed_messages_decode() -> None:
    assert decode_message('{"v": 1, "type": "hello", "token": "abc"}') == Hello(v=1, token="abc")
    assert decode_message(b'{"type": "move", "v": 1, "move": 3, "action": 9, "ref": 4}') == \
        Move(v=1, move=3, action=9, ref=4)
    for kind in ("sync", "leave", "take_seat", "ping"):
        assert decode_message(f'{{"v": 1, "type": "{kind}"}}').v == PROTOCOL_VERSION


@pytest.mark.parametrize(("text", "code"), [
    ("", "message.not_json"),
    ("{", "message.not_json"),
    ("\udcff", "message.not_json"),
    ("null", "message.malformed"),
    ('"hello"', "message.malformed"),
    ("x" * (MAX_MESSAGE_BYTES + 1), "message.too_large"),
    ('{"type": "ping"}', "message.bad_version"),
    ('{"v": true, "type": "ping"}', "message.bad_version"),
    ('{"v": 1.0, "type": "ping"}', "message.bad_version"),
    ('{"v": "1", "type": "ping"}', "message.bad_version"),
    ('{"v": 1}', "message.unknown_type"),
    ('{"v": 1, "type": ["move"]}', "message.unknown_type"),
    ('{"v": 1, "type": "hello"}', "message.malformed"),
    ('{"v": 1, "type": "hello", "token": ""}', "message.malformed"),
    ('{"v": 1, "type": "hello", "token": "' + "t" * 200 + '"}', "message.malformed"),
    ('{"v": 1, "type": "move", "move": -1, "action": 0}', "message.malformed"),
    ('{"v": 1, "type": "move", "move": 0, "action": 9007199254740992}', "message.malformed"),
    ('{"v": 1, "type": "move", "move": 0, "action": "3"}', "message.malformed"),
    ('{"v": 1, "type": "move", "move": 0}', "message.malformed"),
    ('{"v": 1, "type": "sync", "please": true}', "message.malformed"),
    ('{"v": 1, "type": "ping", "ref": ' + "[" * 4000 + "]" * 4000 + "}", "message.malformed"),
])
def test_bad_messages_are_refused_with_their_reason(text: str, code: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        decode_message(text)
    assert caught.value.code == code
    assert str(caught.value)  # an English message for logs


def test_error_messages_carry_code_params_and_text() -> None:
    error = refuse("move.stale", got=3, current=5)
    message = error_message(error, ref=3, move=5)
    assert message == {
        "v": PROTOCOL_VERSION, "type": "error", "code": "move.stale",
        "params": {"got": 3, "current": 5},
        "message": render(SERVER_REASONS["move.stale"], {"got": 3, "current": 5}),
        "ref": 3, "move": 5}


def test_every_reason_code_and_message_type_is_documented() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert '"v": 1' in text
    for code in SERVER_REASONS:
        assert f"`{code}`" in text, f"{code} is missing from docs/protocol.md"
    for kind in MESSAGE_TYPES:
        assert f"| `{kind}` |" in text, f"client message {kind} is not documented"
    for kind in ("welcome", "update", "seats", "notice", "pong", "error"):
        assert f"`{kind}`" in text, f"server message {kind} is not documented"
    documented = set(re.findall(r"^\| `([a-z_]+\.[a-z_.]+)` \|", text, re.M))
    assert documented == set(SERVER_REASONS) | set(NIGHT_REASONS), \
        "docs/protocol.md lists codes the server lacks"


def test_the_server_codes_are_among_all_reasons_without_importing_the_server() -> None:
    """``all_reasons()`` (the generated docs, the German check, the CLI) has the server's and
    the page's codes, and getting them imports no web framework, database or websocket
    library."""
    program = (
        "import sys\n"
        "from kartentisch.core.registry import all_reasons\n"
        "from kartentisch.server.reasons import NIGHT_REASONS, SERVER_REASONS, WEB_REASONS\n"
        "table = all_reasons()\n"
        "assert all(table[c] == t for c, t in\n"
        "           {**SERVER_REASONS, **WEB_REASONS, **NIGHT_REASONS}.items())\n"
        "heavy = ('starlette', 'uvicorn', 'sqlalchemy', 'websockets', 'httpx')\n"
        "print(sorted(m for m in heavy if m in sys.modules))\n")
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
