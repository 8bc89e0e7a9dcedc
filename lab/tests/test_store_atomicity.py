"""record_run is all or nothing: a row the database rejects half way, or the process killed in
the middle of a long transaction, leaves no trace of the run and its planned run still pending."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest
from rundata import terasort_result
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from vivace_lab.plan.planned import PlannedRun
from vivace_lab.store import Store
from vivace_lab.store.database import database_url, make_engine

TABLES = ("runs", "run_config", "jobs", "tasks", "counters", "metric_samples")
HERE = Path(__file__).resolve().parent


def row_counts(url: str) -> dict[str, int]:
    """Rows per table, counted with plain SQL on a connection of its own."""
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return {t: conn.execute(text(f"SELECT count(*) FROM {t}")).scalar_one() for t in TABLES}
    finally:
        engine.dispose()


def one_study(store: Store) -> tuple[int, list[PlannedRun]]:
    queue = [PlannedRun(i, "terasort", "vivace", {"rows": "100000", "maps": "2", "reduces": "1"},
                        {"mapreduce.task.io.sort.mb": "64"}, repeat=i) for i in range(3)]
    return store.open_study("atomic", "name: atomic\n", 1, queue).id, queue


def overflowing_counter(result):
    # the last job's counters come after the run, its configuration, jobs and tasks
    result.record["jobs"][-1]["counters"]["org.apache.hadoop.mapreduce.TaskCounter"][
        "CPU_MILLISECONDS"] = 2**63  # one past BIGINT
    return result


def overflowing_last_sample(result):
    # samples are written last: everything else is in the transaction by then
    result.samples[-1] = replace(result.samples[-1], disk_write_bytes=2**63)
    return result


@pytest.mark.parametrize("spoil", [overflowing_counter, overflowing_last_sample])
def test_a_row_the_database_rejects_leaves_nothing(store_url, spoil):
    with Store(store_url) as store:
        study_id, queue = one_study(store)
        kept = store.record_run(terasort_result(repeat=0, overrides=queue[0].overrides),
                                study_id, 0)
        before = row_counts(store_url)

        with pytest.raises((OverflowError, DBAPIError)):
            store.record_run(spoil(terasort_result(repeat=1, sample_count=50)), study_id, 1)

        assert row_counts(store_url) == before
        assert [r.id for r in store.runs()] == [kept]
        assert [p.seq for p in store.pending_runs(study_id)] == [1, 2]
        # the same planned run records fine afterwards
        store.record_run(terasort_result(repeat=1), study_id, 1)
        assert [p.seq for p in store.pending_runs(study_id)] == [2]


def test_a_killed_process_leaves_a_consistent_database(store_url):
    """SIGKILL a child in the middle of a record_run of 2,000,000 samples."""
    with Store(store_url) as store:
        study_id, queue = one_study(store)
        kept = store.record_run(terasort_result(repeat=0), study_id, 0)
        before = row_counts(store_url)
        backend = store.dialect

    child = subprocess.Popen(
        [sys.executable, str(HERE / "record_child.py"), store_url, str(study_id), "1",
         "2000000"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "recording", child.stderr.read()
        _wait_until_writing(store_url, backend, child)
        child.send_signal(signal.SIGKILL)
        out, err = child.communicate(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == -signal.SIGKILL
    assert "committed" not in out, "the child finished before it was killed"
    if backend == "postgresql":
        _wait_for_backend_gone(store_url)

    assert row_counts(store_url) == before
    with Store(store_url) as store:
        assert [r.id for r in store.runs()] == [kept]
        assert [p.seq for p in store.pending_runs(study_id)] == [1, 2]
        assert store.studies()[0].done == 1
        if backend == "sqlite":
            engine = make_engine(store_url)
            with engine.connect() as conn:
                assert conn.execute(text("PRAGMA integrity_check")).scalar_one() == "ok"
                assert conn.execute(text("PRAGMA foreign_key_check")).all() == []
            engine.dispose()
        store.record_run(terasort_result(repeat=1), study_id, 1)
        assert [p.seq for p in store.pending_runs(study_id)] == [2]


def _wait_until_writing(url: str, backend: str, child: subprocess.Popen) -> None:
    """Until the child's transaction has written a good part of its rows (not committed)."""
    deadline = time.monotonic() + 120
    if backend == "sqlite":
        wal = Path(database_url(url).database + "-wal")
        # uncommitted pages spill into the write-ahead log once SQLite's page cache is full
        while not (wal.exists() and wal.stat().st_size > 16 * 2**20):
            _still_running(child, deadline)
            time.sleep(0.02)
        return
    engine = make_engine(url)
    try:
        while True:
            with engine.connect() as conn:
                # a transaction id is assigned at its first write; the row counts of the
                # child's own transaction are visible to no one else
                writing = conn.execute(text(
                    "SELECT count(*) FROM pg_stat_activity WHERE pid <> pg_backend_pid() "
                    "AND datname = current_database() AND backend_xid IS NOT NULL "
                    "AND now() - xact_start > interval '1 second'")).scalar_one()
            if writing:
                return
            _still_running(child, deadline)
            time.sleep(0.05)
    finally:
        engine.dispose()


def _wait_for_backend_gone(url: str) -> None:
    """The server rolls back a dead client's transaction once it notices the closed socket."""
    engine = make_engine(url)
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline:
            with engine.connect() as conn:
                if not conn.execute(text(
                        "SELECT count(*) FROM pg_stat_activity WHERE pid <> pg_backend_pid() "
                        "AND datname = current_database() AND backend_xid IS NOT NULL")
                        ).scalar_one():
                    return
            time.sleep(0.05)
        raise AssertionError("the killed client's transaction is still open after 60 s")
    finally:
        engine.dispose()


def _still_running(child: subprocess.Popen, deadline: float) -> None:
    if child.poll() is not None:
        raise AssertionError(f"child exited ({child.returncode}) before it was killed: "
                             f"{child.stderr.read()}")
    if time.monotonic() > deadline:
        raise AssertionError("child's transaction never showed up")
