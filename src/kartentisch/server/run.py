"""Start the server: ``kartentisch serve`` and ``python -m kartentisch.server``.

Importing this module is cheap (the bot workers' start imports it again): the server's
libraries are imported when :func:`serve` runs. The listening socket is bound before the
application starts, so port 0 picks a free port;
once the tables are resumed the server prints one line with its address
(``kartentisch server on http://HOST:PORT``) that scripts and tests wait for.
"""

from __future__ import annotations

import logging
import os
import socket
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Final

READY_LINE: Final = "kartentisch server on"

WS_MAX_BYTES: Final = 1 << 16
"""The largest websocket frame read at all (larger ones close the connection with 1009);
frames over ``MAX_MESSAGE_BYTES`` but under this are answered ``message.too_large``."""


def default_database() -> Path:
    """The SQLite file in the user's data directory (no set-up needed)."""
    import platformdirs

    return Path(platformdirs.user_data_dir("kartentisch", appauthor=False)) / "tables.sqlite3"


def default_bot_workers() -> int:
    """One worker process per core but one (at least one): the event loop keeps a core."""
    return max(1, (os.cpu_count() or 2) - 1)


def serve(*, host: str = "127.0.0.1", port: int = 8000, db: str | None = None,
          bot_workers: int | None = None, log_level: str = "info",
          access_log: bool = True, secret_file: str | None = None,
          lobby_expiry: float | None = None, stand_in_pace: float | None = None,
          public_url: str | None = None, allow_origins: Sequence[str] = (),
          limits: str = "", forwarded_allow_ips: str | None = None) -> None:
    """Run the server until SIGINT or SIGTERM.

    ``secret_file``: the server secret's file (default: ``server-secret`` beside the SQLite
    file, or in the user data directory; ``$KARTENTISCH_SERVER_SECRET`` wins over both);
    ``lobby_expiry``: minutes after which an idle table nobody is at leaves the lobby;
    ``stand_in_pace``: seconds a stand-in takes at least per move (default 1.5);
    ``public_url``: the base of the links it returns (default: ``KARTENTISCH_PUBLIC_URL``,
    else the listening address); ``allow_origins``: origins allowed beside the public URL's;
    ``limits``: ``name=value,...`` over the defaults and ``KARTENTISCH_LIMITS``;
    ``forwarded_allow_ips``: the proxies whose ``X-Forwarded-For`` names the client
    (uvicorn's option; default ``127.0.0.1``). See ``docs/security.md``."""
    import uvicorn

    from kartentisch.server.app import create_app
    from kartentisch.server.limits import Limits
    from kartentisch.server.links import default_secret_file, load_secret
    from kartentisch.server.site import Site
    from kartentisch.server.storage import Storage, database_url, shown_url
    from kartentisch.server.tables import LOBBY_EXPIRY_SECONDS, STAND_IN_PACE

    url = database_url(db) if db else database_url(str(default_database()))
    sqlite_file = url.database if url.get_backend_name() == "sqlite" else None
    secret = load_secret(Path(secret_file).expanduser() if secret_file
                         else default_secret_file(sqlite_file))
    logging.basicConfig(level=log_level.upper(), stream=sys.stderr,
                        format="%(levelname)s: %(name)s: %(message)s")
    logging.getLogger("alembic").setLevel(logging.WARNING)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(2048)
    bound = sock.getsockname()[1]
    shown_host = f"[{host}]" if ":" in host else host

    def ready() -> None:
        print(f"{READY_LINE} http://{shown_host}:{bound} (database {shown_url(url)})",
              flush=True)

    chosen = Limits.parse(limits, Limits.from_environment())
    site = Site.for_address(host, bound, public_url=public_url, allow=allow_origins)
    storage = Storage(url)

    app = create_app(storage, bot_workers=default_bot_workers() if bot_workers is None
                     else bot_workers, on_ready=ready, secret=secret,
                     lobby_expiry=LOBBY_EXPIRY_SECONDS if lobby_expiry is None
                     else lobby_expiry * 60,
                     stand_in_pace=STAND_IN_PACE if stand_in_pace is None else stand_in_pace,
                     limits=chosen, site=site)
    config = uvicorn.Config(app, log_level=log_level, access_log=access_log,
                            ws_max_size=WS_MAX_BYTES, ws_ping_interval=20, ws_ping_timeout=60,
                            lifespan="on", timeout_graceful_shutdown=5, proxy_headers=True,
                            forwarded_allow_ips=forwarded_allow_ips)
    uvicorn.Server(config).run(sockets=[sock])
