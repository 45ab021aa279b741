"""SqlStore and open_store: URLs, the default file, migrations, SQLite settings, errors."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from tracegrade.errors import InfrastructureError, InputError
from tracegrade.store import DEFAULT_URL, RunRecord, SqlStore, open_store
from tracegrade.store._migrate import _config, head_revision
from tracegrade.store._schema import METADATA
from tracegrade.store._url import parse_store_url


def test_the_default_store_is_a_sqlite_file_under_dot_tracegrade(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    store = open_store()
    store.start_run(RunRecord(run_id="r", lane="fast", registry_version="1"))
    store.close()
    assert DEFAULT_URL == "sqlite:///.tracegrade/tracegrade.db"
    assert (tmp_path / ".tracegrade" / "tracegrade.db").is_file()
    again = open_store(None)
    assert [run.run_id for run in again.list_runs()] == ["r"]
    again.close()


def test_sqlite_runs_in_wal_mode_with_a_busy_timeout(sqlite_url: str) -> None:
    open_store(sqlite_url).close()
    engine = sa.create_engine(sqlite_url)
    with engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
    engine.dispose()
    store = open_store(sqlite_url)
    with store._engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA busy_timeout").scalar() == 30_000
        assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    store.close()


def test_opening_migrates_to_head_and_matches_the_schema(store_url: str) -> None:
    open_store(store_url).close()
    open_store(store_url).close()  # a second open finds nothing to do
    engine = sa.create_engine(parse_store_url(store_url))
    with engine.connect() as connection:
        context = MigrationContext.configure(connection)
        assert context.get_current_revision() == head_revision() == "0003"
        assert compare_metadata(context, METADATA) == []
        tables = set(sa.inspect(connection).get_table_names())
    engine.dispose()
    assert tables == {
        "alembic_version",
        "runs",
        "case_results",
        "baselines",
        "touchpoint_versions",
        "ai_calls",
        "signals",
        "proposals",
        "file_blobs",
        "rubric_scores",
        "received_traces",
        "shadow_comparisons",
        "auto_apply_watches",
    }


def test_a_database_at_0001_upgrades_to_head_keeping_its_runs(store_url: str) -> None:
    url = parse_store_url(store_url)
    if url.get_backend_name() == "sqlite" and url.database:
        Path(url.database).parent.mkdir(parents=True)
    engine = sa.create_engine(url)
    with engine.begin() as connection:
        config = _config()
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")
        connection.execute(
            sa.text(
                "INSERT INTO runs (run_id, started_at, lane, registry_version, status, summary)"
                " VALUES ('old', CURRENT_TIMESTAMP, 'pr', 'r1', 'finished', '{}')"
            )
        )
        connection.execute(
            sa.text(
                "INSERT INTO touchpoint_versions"
                " (touchpoint, version, registry_version, hashes, recorded_at)"
                " VALUES ('t', 'v1', 'r1', '{\"a.md\": \"ab\"}', CURRENT_TIMESTAMP)"
            )
        )
    engine.dispose()
    store = open_store(store_url)
    try:
        run = store.get_run("old")
        [version] = store.touchpoint_versions("t")
    finally:
        store.close()
    assert run is not None
    assert run.registry_version == "r1"
    assert (version.hashes, version.recorded_by) == ({"a.md": "ab"}, None)


def test_a_schema_change_without_a_migration_is_noticed(store_url: str) -> None:
    open_store(store_url).close()
    changed = sa.MetaData()
    for table in METADATA.tables.values():
        table.to_metadata(changed)
    sa.Table("notes", changed, sa.Column("id", sa.Integer, primary_key=True))
    engine = sa.create_engine(parse_store_url(store_url))
    with engine.connect() as connection:
        diff = compare_metadata(MigrationContext.configure(connection), changed)
    engine.dispose()
    assert [entry[0] for entry in diff] == ["add_table"]


@pytest.mark.parametrize(
    "url",
    ["mysql://root@localhost/db", "mongodb://x", "not a url", "sqlite://", "sqlite:///:memory:"],
)
def test_a_url_that_is_not_sqlite_or_postgres_is_an_input_error(url: str) -> None:
    with pytest.raises(InputError) as raised:
        open_store(url)
    assert raised.value.exit_code == 2
    assert "sqlite:///" in str(raised.value)


@pytest.mark.parametrize("scheme", ["postgres", "postgresql", "postgresql+psycopg"])
def test_postgres_urls_mean_psycopg_3(scheme: str) -> None:
    parsed = parse_store_url(f"{scheme}://u@h/db")
    assert parsed.drivername == "postgresql+psycopg"


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def test_a_down_database_is_an_infrastructure_error_without_the_password() -> None:
    url = f"postgresql+psycopg://grader:s3cret-pw@127.0.0.1:{closed_port()}/results"
    with pytest.raises(InfrastructureError) as raised:
        open_store(url)
    message = str(raised.value)
    assert raised.value.exit_code == 3
    assert "s3cret-pw" not in message
    assert "grader:***@127.0.0.1" in message
    assert "Check that the database is running" in message


def test_an_unopenable_sqlite_file_is_an_infrastructure_error(tmp_path: Path) -> None:
    folder = tmp_path / "a-folder.db"
    folder.mkdir()  # a folder where the file should be
    with pytest.raises(InfrastructureError, match=r"cannot use the store at sqlite:///"):
        SqlStore(f"sqlite:///{folder}")


def test_migration_0003_downgrades_to_the_0002_tables(store_url: str) -> None:
    open_store(store_url).close()
    engine = sa.create_engine(parse_store_url(store_url))
    with engine.begin() as connection:
        config = _config()
        config.attributes["connection"] = connection
        command.downgrade(config, "0002")
    with engine.connect() as connection:
        tables = set(sa.inspect(connection).get_table_names())
    engine.dispose()
    assert "shadow_comparisons" not in tables
    assert "auto_apply_watches" not in tables
    assert "proposals" in tables
    open_store(store_url).close()  # and up again


def test_migration_0002_downgrades_to_the_0001_tables(store_url: str) -> None:
    open_store(store_url).close()
    url = parse_store_url(store_url)
    engine = sa.create_engine(url)
    with engine.begin() as connection:
        config = _config()
        config.attributes["connection"] = connection
        command.downgrade(config, "0001")
    with engine.connect() as connection:
        inspector = sa.inspect(connection)
        tables = set(inspector.get_table_names())
        columns = {column["name"] for column in inspector.get_columns("touchpoint_versions")}
    engine.dispose()
    assert tables == {"alembic_version", "runs", "case_results", "baselines", "touchpoint_versions"}
    assert "recorded_by" not in columns
