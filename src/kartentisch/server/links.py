"""The server secret and the links derived from it: re-showable, revocable, never stored.

A server has one 32-byte secret (``KARTENTISCH_SERVER_SECRET`` in hex, or a file made with
mode 0600 on first start). Every link of a table made here is an HMAC of the secret and the
table's id (and the seat and its *generation*), so the host's page can be shown any link
again by recomputing it, while the database still keeps only SHA-256 hashes of tokens.
Removing a player bumps the seat's generation: the new link differs and the old one's hash
is deleted. ``key_id`` (the first 16 hex digits of the secret's SHA-256) is stored with each
table, so a server with another secret says so instead of showing links that do not work.

Importing this module is cheap (only the standard library).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
from pathlib import Path
from typing import Final

SECRET_BYTES: Final = 32
"""The size of a server secret."""

SECRET_ENV: Final = "KARTENTISCH_SERVER_SECRET"
"""The environment variable that may hold the secret (64 hex digits)."""

SECRET_FILE_NAME: Final = "server-secret"
"""The secret file's name beside an SQLite database (or in the user data directory)."""


class SecretError(Exception):
    """The configured secret cannot be used (wrong length, not hex, unreadable file)."""


def key_id(secret: bytes) -> str:
    """The public name of ``secret``: the first 16 hex digits of its SHA-256."""
    return hashlib.sha256(secret).hexdigest()[:16]


def _token(secret: bytes, message: str) -> str:
    digest = hmac.new(secret, message.encode("utf-8"), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def host_token(secret: bytes, table_id: str) -> str:
    """The host's token of ``table_id`` (43 URL-safe characters)."""
    return _token(secret, f"{table_id}/host")


def seat_token(secret: bytes, table_id: str, seat: int, generation: int = 0) -> str:
    """The link token of ``seat`` of ``table_id`` in its ``generation``."""
    return _token(secret, f"{table_id}/seat/{seat}/{generation}")


def watch_token(secret: bytes, table_id: str) -> str:
    """The watch link's token of ``table_id``."""
    return _token(secret, f"{table_id}/watch")


def parse_secret(text: str) -> bytes:
    """The secret written as hex (spaces and a final newline allowed)."""
    try:
        secret = bytes.fromhex(text.strip())
    except ValueError:
        raise SecretError("the server secret is not hexadecimal") from None
    if len(secret) != SECRET_BYTES:
        raise SecretError(f"the server secret has {len(secret)} bytes, not {SECRET_BYTES}")
    return secret


def default_secret_file(database: str | None) -> Path:
    """Where the secret lives by default: beside an SQLite file, else in the user data
    directory (a PostgreSQL server's processes on one machine share it there)."""
    if database and database not in (":memory:", ""):
        return Path(database).expanduser().resolve().parent / SECRET_FILE_NAME
    import platformdirs

    return Path(platformdirs.user_data_dir("kartentisch", appauthor=False)) / SECRET_FILE_NAME


def load_secret(path: Path) -> bytes:
    """The secret from ``$KARTENTISCH_SERVER_SECRET``, else from ``path``; a missing file is
    created (mode 0600, never overwritten: of two processes starting at once one writes it
    and the other reads it)."""
    text = os.environ.get(SECRET_ENV)
    if text:
        return parse_secret(text)
    try:
        return parse_secret(path.read_text("ascii"))
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    secret = secrets.token_bytes(SECRET_BYTES)
    scratch = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    fd = os.open(scratch, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as handle:
        handle.write(secret.hex() + "\n")
        handle.flush()
        os.fsync(handle.fileno())
    try:  # a hard link appears whole or not at all, and never replaces a file
        os.link(scratch, path)
    except FileExistsError:  # another process made it meanwhile: theirs counts
        return parse_secret(path.read_text("ascii"))
    finally:
        scratch.unlink()
    return secret

__all__ = ["SECRET_ENV", "SecretError", "default_secret_file", "host_token", "key_id",
           "load_secret", "parse_secret", "seat_token", "watch_token"]
