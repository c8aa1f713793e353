"""Where the server is reached: the public base URL of its links and the origins it trusts.

Every link the server returns (seat, watch, host, claimed seats) is built by
:meth:`Site.link` from the configured public base URL (``kartentisch serve --public-url``
or ``KARTENTISCH_PUBLIC_URL``), never from the request's ``Host`` header, which a client
chooses. Without a configured URL the base is the address the server listens on (a
wildcard address becomes ``localhost``).

Browsers send ``Origin`` with every websocket and every cross-site POST. The server accepts
a websocket or a state-changing request only when its ``Origin`` is the public URL's own
origin or one allowed with ``--allow-origin`` (``KARTENTISCH_ALLOW_ORIGINS``, comma-
separated; ``*`` allows any); a request without ``Origin`` (not a browser: ``curl``, the
Python client, ``kartentisch replay``) is accepted, and one with ``Sec-Fetch-Site:
cross-site`` but no ``Origin`` is refused.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from urllib.parse import urlsplit

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")


def origin_of(url: str) -> str:
    """``scheme://host[:port]`` of ``url``, lower-case, default ports left out."""
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    if ":" in host:
        host = f"[{host}]"
    port = parts.port
    default = {"http": 80, "https": 443}.get(scheme)
    return f"{scheme}://{host}" + ("" if port in (None, default) else f":{port}")


@dataclass(frozen=True)
class Site:
    """The public base URL (ending in ``/``) and the origins allowed besides its own."""

    base_url: str
    allowed: frozenset[str] = field(default_factory=frozenset)
    any_origin: bool = False

    @classmethod
    def make(cls, base_url: str, allow: Iterable[str] = ()) -> Site:
        """The site of ``base_url`` (a missing final ``/`` is added) allowing ``allow``
        too; a loopback base also allows the other loopback names of its port (the same
        machine)."""
        if not base_url.endswith("/"):
            base_url += "/"
        if urlsplit(base_url).scheme not in ("http", "https"):
            raise ValueError(f"the public URL must start with http:// or https://: {base_url}")
        wanted = [a.strip() for a in allow if a.strip()]
        origins = {origin_of(base_url)} | {origin_of(a) for a in wanted if a != "*"}
        parts = urlsplit(base_url)
        if parts.hostname in ("localhost", "127.0.0.1", "::1"):
            port = f":{parts.port}" if parts.port else ""
            origins |= {f"{parts.scheme}://{name}{port}" for name in LOOPBACK_NAMES}
        return cls(base_url, frozenset(origins), "*" in wanted)

    @classmethod
    def for_address(cls, host: str, port: int, *, public_url: str | None = None,
                    allow: Iterable[str] = ()) -> Site:
        """The site of a server listening on ``host``:``port`` (``public_url`` and
        ``allow`` default to ``KARTENTISCH_PUBLIC_URL`` and ``KARTENTISCH_ALLOW_ORIGINS``)."""
        public_url = public_url or os.environ.get("KARTENTISCH_PUBLIC_URL") or None
        extra = [*allow, *os.environ.get("KARTENTISCH_ALLOW_ORIGINS", "").split(",")]
        if public_url is None:
            shown = "localhost" if host in ("0.0.0.0", "::", "") else host
            if ":" in shown:
                shown = f"[{shown}]"
            public_url = f"http://{shown}:{port}/"
        return cls.make(public_url, extra)

    def link(self, kind: str, token: str) -> str:
        """The link ``BASE#kind=token`` (``kind``: ``seat``, ``watch``, ``host``)."""
        return f"{self.base_url}#{kind}={token}"

    def allows(self, headers: Mapping[str, str]) -> bool:
        """Whether a request with ``headers`` comes from an allowed origin (or from no
        browser page at all)."""
        origin = headers.get("origin")
        if origin is None:
            return headers.get("sec-fetch-site", "") != "cross-site"
        if self.any_origin:
            return True
        return origin != "null" and origin_of(origin) in self.allowed


__all__ = ["Site", "origin_of"]
