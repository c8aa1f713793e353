"""``python -m kartentisch.server [--host H] [--port P] [--db URL] [--bot-workers N]
[--secret-file PATH] [--lobby-expiry MINUTES]``."""

from __future__ import annotations

import argparse

from kartentisch.server.run import serve


def main(argv: list[str] | None = None) -> None:
    """Parse the arguments and serve (the same as ``kartentisch serve``)."""
    parser = argparse.ArgumentParser(prog="python -m kartentisch.server")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--db", default=None, help="path or sqlite:///... or postgresql://...")
    parser.add_argument("--bot-workers", type=int, default=None)
    parser.add_argument("--log-level", default="info")
    parser.add_argument("--no-access-log", action="store_true")
    parser.add_argument("--secret-file", default=None,
                        help="the server secret's file (made on first start)")
    parser.add_argument("--lobby-expiry", type=float, default=None, metavar="MINUTES",
                        help="an idle table nobody is at leaves the lobby (default 30)")
    args = parser.parse_args(argv)
    serve(host=args.host, port=args.port, db=args.db, bot_workers=args.bot_workers,
          log_level=args.log_level, access_log=not args.no_access_log,
          secret_file=args.secret_file, lobby_expiry=args.lobby_expiry)


if __name__ == "__main__":
    main()
