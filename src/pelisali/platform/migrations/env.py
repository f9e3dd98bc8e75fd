"""Alembic environment: runs on the connection Pelisali hands it (``db.upgrade``)."""

from alembic import context

from pelisali.platform.models import Base

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - the alembic command line
    from pelisali.platform.db import make_engine

    connection = make_engine().connect()
context.configure(connection=connection, target_metadata=Base.metadata,
                  render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
