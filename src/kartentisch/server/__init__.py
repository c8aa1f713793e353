"""The table server: play together over websockets, tables stored write-ahead in SQL.

``kartentisch serve`` runs it (see :mod:`kartentisch.server.run`); ``docs/server.md`` explains
the design and ``docs/protocol.md`` the messages. The parts: :mod:`.protocol` (messages and
reason codes), :mod:`.storage` (SQLAlchemy, Alembic, group commit, LISTEN/NOTIFY),
:mod:`.tables` (authoritative tables and per-seat views), :mod:`.bots` (bots in worker
processes), :mod:`.app` (Starlette routes). Importing this package starts nothing.
"""
