"""Alembic migrations of the store; run by ``tracegrade.store.open_store``."""
