"""Alembic environment of the table server: runs on the connection the server hands over.

The server calls ``alembic upgrade head`` itself at start-up (see ``Storage.migrate``) with
``config.attributes["connection"]`` set, so no ``alembic.ini`` and no URL are needed here.
"""

from __future__ import annotations

from alembic import context

from kartentisch.server.storage import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata)
with context.begin_transaction():
    context.run_migrations()
