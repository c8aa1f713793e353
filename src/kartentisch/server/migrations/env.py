"""Alembic environment of the table server: runs on the connection the server hands over.

The server calls ``alembic upgrade head`` itself at start-up (see ``Storage.migrate``) with
``config.attributes["connection"]`` set, so no ``alembic.ini`` and no URL are needed here.
Merely importing this module (as a doctest collector does) runs nothing.
"""

from __future__ import annotations

from alembic import context

from kartentisch.server.storage import metadata


def run_migrations() -> None:
    """Run the pending migrations on the server's connection."""
    connection = context.config.attributes["connection"]
    context.configure(connection=connection, target_metadata=metadata)
    with context.begin_transaction():
        context.run_migrations()


if getattr(context, "_proxy", None) is not None:  # run by Alembic, not just imported
    run_migrations()
