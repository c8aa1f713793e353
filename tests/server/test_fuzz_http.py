"""Generated requests (hypothesis) to every HTTP route of a live server, on SQLite and on
PostgreSQL: never a raw 500, every refusal a JSON error with a reason code, no error counted
in ``/health``.

The routes are read from the application itself, so a route added later is fuzzed too. Path
parameters get a real table id, ids the server never makes (NUL bytes, thousands of digits,
odd characters, megabytes), query parameters and bodies generated values, real and broken
link tokens. ``make test`` sends a few hundred requests per database; with
``KARTENTISCH_SOAK=1`` a few thousand.
"""

from __future__ import annotations

import os
import re
import tempfile
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from starlette.routing import Route

from kartentisch.server.app import create_app
from kartentisch.server.storage import Storage

SOAK = os.environ.get("KARTENTISCH_SOAK") == "1"
EXAMPLES = 150 if SOAK else 6
PER_EXAMPLE = 30


def http_routes() -> list[tuple[str, str]]:
    """``(method, path template)`` of every HTTP route of the application (built, not
    started: no database is touched)."""
    app = create_app(Storage(f"sqlite:///{tempfile.gettempdir()}/kt-routes.sqlite3"),
                     bot_workers=0)
    found = []
    for route in app.routes:
        if isinstance(route, Route) and route.methods:
            for method in sorted(route.methods - {"HEAD"}):
                found.append((method, route.path))
    return found


ROUTES = http_routes()

REAL, TOKEN, WATCH = "<real table>", "<seat token>", "<watch token>"
values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                 max_size=3),
    max_leaves=8)
ids = st.sampled_from([REAL, REAL, "a\x00b", "9" * 5000, "x" * 40, "ä", "..", "%", " ",
                       "-", "_"]) | st.text(max_size=20)
tokens = st.sampled_from([TOKEN, WATCH, "", "\x00", "x" * 200]) | st.text(max_size=50)
fields = st.fixed_dictionaries({}, optional={
    "token": tokens, "text": st.text(max_size=30) | st.just("9" * 5000) | values,
    "seat": st.integers(-(2**64), 2**64) | values, "game": st.sampled_from(
        ["krumme20", "casino", "krass-kariert", "nope"]) | values,
    "players": st.integers(-5, 10) | values, "table": values | st.fixed_dictionaries(
        {"game": st.just("krumme20")}, optional={"players": st.integers(-1, 6)}),
    "host": tokens, "options": values, "seats": values, "v": values, "extra": values})
bodies = (fields.map(lambda f: ("json", f)) | values.map(lambda v: ("json", v))
          | st.binary(max_size=60).map(lambda b: ("raw", b)))
queries = st.dictionaries(st.sampled_from(["view", "lang", "x"]),
                          st.sampled_from(["all", "watch", "0", "1", "9" * 5000, "-1", "de",
                                           "\x00"]) | st.text(max_size=8), max_size=2)
requests = st.tuples(st.sampled_from(ROUTES), ids, queries, bodies)


def fill(value: Any, made: dict[str, Any]) -> Any:
    """Replace the markers by the real table's id and tokens."""
    if value == REAL:
        return made["table"]
    if value == TOKEN:
        return made["seats"][0]["token"]
    if value == WATCH:
        return made["watch"]["token"]
    if isinstance(value, dict):
        return {k: fill(v, made) for k, v in value.items()}
    if isinstance(value, list):
        return [fill(v, made) for v in value]
    return value


def test_the_route_list_is_read_from_the_application() -> None:
    paths = {path for _method, path in ROUTES}
    assert {"/api/tables", "/api/web/explain", "/api/web/tables/{table_id}/claim",
            "/health"} <= paths
    assert ("POST", "/api/web/hint") in ROUTES


@settings(max_examples=EXAMPLES, deadline=None, database=None,
          phases=[Phase.explicit, Phase.generate],
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                 HealthCheck.function_scoped_fixture])
@given(batch=st.lists(requests, min_size=PER_EXAMPLE, max_size=PER_EXAMPLE))
def test_generated_requests_never_get_a_raw_500(db_server: Any, batch: list[Any]) -> None:
    made = db_server.create(game="casino", players=2, listed=True, hints=False, seats=[
        {"kind": "human"}, {"kind": "human", "open": True}])
    with httpx.Client(base_url=db_server.url, timeout=60) as http:
        before = http.get("/health").json()["errors"]
        for (method, template), table_id, query, (kind, body) in batch:
            table_id = fill(table_id, made)
            path = re.sub(r"\{[a-z_]+\}", quote(table_id, safe=""), template)
            params = {k: fill(v, made) for k, v in query.items()}
            if kind == "json":
                content = httpx.Request("POST", "/", json=fill(body, made)).content
            else:
                content = body
            answer = http.request(method, path, params=params,
                                  content=content if method == "POST" else None)
            assert answer.status_code < 500 or answer.status_code == 503, \
                (method, path, answer.status_code, answer.text[:300])
            routing = answer.status_code in (404, 405) and answer.headers.get(
                "content-type", "").startswith("text/plain")  # ".." made another path
            if answer.status_code >= 400 and path.startswith("/api/") and not routing:
                assert answer.headers["content-type"].startswith("application/json"), path
                assert isinstance(answer.json().get("code"), str), answer.text[:200]
        after = http.get("/health").json()
    assert after["errors"] == before


@pytest.mark.parametrize("path", ["/static/../../etc/passwd", "/static/%2e%2e/x",
                                  "/static/js/nope.js", "/nope", "/api/nope"])
def test_unknown_paths_are_plain_404s(sqlite_server: Any, path: str) -> None:
    with sqlite_server.http() as http:
        assert http.get(path).status_code == 404
