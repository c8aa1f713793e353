"""The HTTP routes' guard: origins, request rates, and no raw 500 for any request.

:class:`Guard` wraps the whole application (an ASGI middleware):

- a state-changing request (any method but GET, HEAD and OPTIONS) whose ``Origin`` the
  :class:`~kartentisch.server.site.Site` does not allow gets 403 ``server.bad_origin``
  (websockets check their origin where they are accepted);
- the table routes (``/api/...`` but the catalogue, games and health) take a token from the
  address's request bucket (``Limits.requests_*``); without one: 429 ``rate.too_fast`` with
  ``retry_after`` and a ``Retry-After`` header;
- an error no route turned into a reason: a storage error becomes 503 ``server.storage``, any
  other 500 ``server.internal``; both are counted (``/health``: ``storage.failures``,
  ``errors``) and logged, and the client never sees a traceback.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from typing import Any

from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kartentisch.server.limits import UNKNOWN_ADDRESS, KeyedBuckets
from kartentisch.server.protocol import error_message, refuse
from kartentisch.server.site import Site
from kartentisch.server.storage import STORAGE_ERRORS

log = logging.getLogger("kartentisch.server")

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
UNLIMITED = ("/api/web/catalogue", "/api/web/games", "/api/games")
"""Reads the page makes once per visit (cached), not rate-limited."""


def client_address(scope: Scope) -> str:
    """The client's address as uvicorn reports it (behind a proxy trusted with
    ``--forwarded-allow-ips``, the address the proxy names)."""
    client = scope.get("client")
    return str(client[0]) if client else UNKNOWN_ADDRESS


def retry_seconds(wait: float) -> float:
    """A wait in seconds as the client is told it (rounded up to a tenth)."""
    return math.ceil(wait * 10) / 10


class Guard:
    """The middleware above; ``counts`` gets ``errors``/``storage``/refusal counts."""

    def __init__(self, app: ASGIApp, *, site: Callable[[], Site],
                 requests: Callable[[], KeyedBuckets],
                 count: Callable[[str, BaseException | None], None]) -> None:
        self.app = app
        self.site = site
        self.requests = requests
        self.count = count

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        method = scope["method"]
        path: str = scope["path"]
        if method not in SAFE_METHODS and not self.site().allows(Headers(scope=scope)):
            self.count("server.bad_origin", None)
            await _answer(scope, receive, send, 403, error_message(refuse("server.bad_origin")))
            return
        if path.startswith("/api/") and not path.startswith(UNLIMITED):
            wait = self.requests().take(client_address(scope))
            if wait:
                self.count("rate.too_fast", None)
                seconds = retry_seconds(wait)
                await _answer(scope, receive, send, 429, error_message(
                    refuse("rate.too_fast", retry_after=seconds), retry_after=seconds),
                    {"Retry-After": str(math.ceil(seconds))})
                return
        started = False

        async def watch(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, watch)
        except Exception as error:
            storage = isinstance(error, STORAGE_ERRORS)
            self.count("server.storage" if storage else "server.internal", error)
            if storage:
                log.error("storage: %s %s failed: %s", method, path[:80], type(error).__name__)
            else:
                log.exception("server error on %s %s", method, path[:80])
            if not started:
                code, status = ("server.storage", 503) if storage else ("server.internal", 500)
                await _answer(scope, receive, send, status, error_message(refuse(code)))


async def _answer(scope: Scope, receive: Receive, send: Send, status: int,
                  body: dict[str, Any], headers: dict[str, str] | None = None) -> None:
    await JSONResponse(body, status_code=status, headers=headers)(scope, receive, send)


__all__ = ["Guard", "client_address", "retry_seconds"]
