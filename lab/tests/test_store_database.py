"""Connecting: URLs, SQLite's settings, the schema's creation and version."""

from __future__ import annotations

import pytest
from rundata import terasort_result
from sqlalchemy import inspect, text

from vivace_lab.store import SchemaVersionError, Store
from vivace_lab.store.database import database_url, make_engine

EXPECTED_TABLES = {"schema_info", "clusters", "studies", "planned_runs", "runs", "run_config",
                   "jobs", "tasks", "counters", "metric_samples"}


def test_url_handling(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert database_url("results/lab.db").database == str(tmp_path / "results" / "lab.db")
    assert database_url("sqlite:////srv/lab.db").database == "/srv/lab.db"
    assert database_url(":memory:").render_as_string() == "sqlite://"
    assert database_url("postgresql://lab:pw@db.example/lab").drivername == "postgresql+psycopg"
    assert database_url("postgres://lab@db.example/lab").drivername == "postgresql+psycopg"
    assert database_url("postgresql+psycopg://lab@db/lab").drivername == "postgresql+psycopg"
    with pytest.raises(ValueError):
        database_url("  ")


def test_a_plain_path_makes_an_sqlite_file_in_a_new_folder(tmp_path):
    path = tmp_path / "deep" / "er" / "lab.db"
    with Store(str(path)) as store:
        assert store.dialect == "sqlite"
        store.record_run(terasort_result())
    assert path.exists()


def test_sqlite_runs_with_wal_and_foreign_keys(tmp_path):
    url = str(tmp_path / "lab.db")
    Store(url).close()
    engine = make_engine(url)
    with engine.connect() as conn:
        assert conn.execute(text("PRAGMA journal_mode")).scalar_one() == "wal"
        assert conn.execute(text("PRAGMA foreign_keys")).scalar_one() == 1
    engine.dispose()


def test_in_memory_sqlite(tmp_path):
    with Store(":memory:") as store:
        run_id = store.record_run(terasort_result())
        assert store.run(run_id).workload == "terasort"


def test_schema_is_created_once_with_its_indexes(store_url):
    Store(store_url).close()
    Store(store_url).close()  # idempotent
    engine = make_engine(store_url)
    try:
        inspector = inspect(engine)
        assert EXPECTED_TABLES <= set(inspector.get_table_names())
        sample_indexes = {tuple(ix["column_names"])
                          for ix in inspector.get_indexes("metric_samples")}
        assert ("run_id", "t_ms") in sample_indexes
        run_indexes = {tuple(ix["column_names"]) for ix in inspector.get_indexes("runs")}
        for column in ("maps", "reduces", "io_sort_mb", "map_output_codec", "slots", "study_id"):
            assert (column,) in run_indexes
    finally:
        engine.dispose()


def test_foreign_keys_hold(store_url):
    """The database itself refuses a sample of a run that does not exist."""
    with Store(store_url):
        pass
    engine = make_engine(store_url)
    try:
        with pytest.raises(Exception, match="(?i)foreign key"):
            with engine.begin() as conn:
                conn.execute(text("INSERT INTO metric_samples (run_id, t_ms, interval_s) "
                                  "VALUES (424242, 1, 1.0)"))
    finally:
        engine.dispose()


def test_a_database_of_another_schema_version_is_refused(store_url):
    Store(store_url).close()
    engine = make_engine(store_url)
    with engine.begin() as conn:
        conn.execute(text("UPDATE schema_info SET value = '999' WHERE key = 'schema_version'"))
    engine.dispose()
    with pytest.raises(SchemaVersionError, match="schema version 999"):
        Store(store_url)



def test_concurrent_writers_and_readers(store_url):
    """Several stores (a study runner, a web app editing prices, a reader) on one database at
    once: every write lands, none fails with 'database is locked'."""
    from concurrent.futures import ThreadPoolExecutor

    Store(store_url).close()

    def writer(n: int) -> list[int]:
        with Store(store_url) as store:
            ids = []
            for i in range(4):
                ids.append(store.record_run(terasort_result(cluster=f"c{n}", repeat=i)))
                store.ensure_cluster(f"c{n}", {"nodes": n}, hourly_price=float(i))
            return ids

    def reader(_: int) -> int:
        with Store(store_url) as store:
            return max(len(store.runs()) for _ in range(10))

    with ThreadPoolExecutor(max_workers=5) as pool:
        written = pool.map(writer, range(1, 5))
        read = pool.submit(reader, 0)
        ids = [i for batch in written for i in batch]
        assert read.result() <= 16
    with Store(store_url) as store:
        assert sorted(r.id for r in store.runs()) == sorted(ids)
        assert len(ids) == 16
        assert {c.name: c.hourly_price for c in store.clusters()} == {
            "c1": 3.0, "c2": 3.0, "c3": 3.0, "c4": 3.0}
