"""``python -m kartentisch.server [--host H] [--port P] [--db URL] [--bot-workers N]
[--secret-file PATH] [--lobby-expiry MINUTES] [--stand-in-pace SECONDS]``."""

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
    parser.add_argument("--stand-in-pace", type=float, default=None,
                        help="seconds a stand-in takes at least per move (default 1.5)")
    parser.add_argument("--public-url", default=None,
                        help="base URL of the links it returns (docs/security.md)")
    parser.add_argument("--allow-origin", action="append", default=[],
                        help="another origin whose pages may use this server")
    parser.add_argument("--limit", action="append", default=[],
                        help="NAME=VALUE: change a limit (docs/security.md)")
    parser.add_argument("--forwarded-allow-ips", default=None,
                        help="proxies trusted to name the client (X-Forwarded-For)")
    args = parser.parse_args(argv)
    if args.stand_in_pace is not None and not 0 <= args.stand_in_pace <= 60:
        parser.error("--stand-in-pace is seconds from 0 to 60")
    serve(host=args.host, port=args.port, db=args.db, bot_workers=args.bot_workers,
          log_level=args.log_level, access_log=not args.no_access_log,
          secret_file=args.secret_file, lobby_expiry=args.lobby_expiry,
          stand_in_pace=args.stand_in_pace, public_url=args.public_url,
          allow_origins=args.allow_origin, limits=",".join(args.limit),
          forwarded_allow_ips=args.forwarded_allow_ips)


if __name__ == "__main__":
    main()
