"""The results database's tables (documented column by column in lab/docs/schema.md)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from vivace_lab.store.coltypes import BigId, Json, UtcDateTime, utc_now

#: Bumped whenever a table changes; a database made by another version is refused, not guessed at.
SCHEMA_VERSION = 1

# planned_runs.state
PENDING = "pending"
DONE = "done"

# studies.status
STUDY_PENDING = "pending"  # no planned run done yet
STUDY_RUNNING = "running"  # some done, some pending
STUDY_COMPLETE = "complete"  # none pending


class Base(DeclarativeBase):
    pass


class SchemaInfo(Base):
    __tablename__ = "schema_info"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(String(256))


# Ids of clusters, studies, runs and jobs are never reused (SQLite: AUTOINCREMENT; PostgreSQL's
# sequences never reuse): a restarted study or a deleted run must not lend its id to another.
_NO_REUSE = {"sqlite_autoincrement": True}


class Cluster(Base):
    __tablename__ = "clusters"
    __table_args__ = (_NO_REUSE,)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    description: Mapped[dict[str, Any]] = mapped_column(Json)
    hourly_price: Mapped[float | None] = mapped_column(Float)
    created: Mapped[datetime] = mapped_column(UtcDateTime, default=utc_now)


class Study(Base):
    __tablename__ = "studies"
    __table_args__ = (_NO_REUSE,)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    spec_text: Mapped[str] = mapped_column(Text)
    seed: Mapped[int] = mapped_column(BigInteger)
    created: Mapped[datetime] = mapped_column(UtcDateTime, default=utc_now)
    status: Mapped[str] = mapped_column(String(16), default=STUDY_PENDING)


class PlannedRunRow(Base):
    __tablename__ = "planned_runs"
    __table_args__ = (
        UniqueConstraint("study_id", "seq"),
        Index("ix_planned_runs_study_state_seq", "study_id", "state", "seq"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    study_id: Mapped[int] = mapped_column(ForeignKey("studies.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    key: Mapped[str] = mapped_column(Text)
    workload: Mapped[str] = mapped_column(String(100))
    engine: Mapped[str] = mapped_column(String(100))
    params: Mapped[dict[str, str]] = mapped_column(Json)
    overrides: Mapped[dict[str, str]] = mapped_column(Json)
    repeat: Mapped[int] = mapped_column(Integer)
    state: Mapped[str] = mapped_column(String(8), default=PENDING)
    run_id: Mapped[int | None] = mapped_column(
        ForeignKey("runs.id", ondelete="SET NULL"), index=True)


class Run(Base):
    __tablename__ = "runs"
    __table_args__ = (
        Index("ix_runs_workload_engine", "workload", "engine"),
        Index("ix_runs_study_id", "study_id"),
        Index("ix_runs_cluster_id", "cluster_id"),
        Index("ix_runs_status", "status"),
        Index("ix_runs_started_at", "started_at"),
        Index("ix_runs_maps", "maps"),
        Index("ix_runs_reduces", "reduces"),
        Index("ix_runs_io_sort_mb", "io_sort_mb"),
        Index("ix_runs_map_output_codec", "map_output_codec"),
        Index("ix_runs_slots", "slots"),
        _NO_REUSE,
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    study_id: Mapped[int | None] = mapped_column(ForeignKey("studies.id", ondelete="SET NULL"))
    cluster_id: Mapped[int] = mapped_column(ForeignKey("clusters.id"))
    workload: Mapped[str] = mapped_column(String(100))
    engine: Mapped[str] = mapped_column(String(100))
    status: Mapped[str] = mapped_column(String(16))
    failure: Mapped[str | None] = mapped_column(Text)
    started_at: Mapped[datetime] = mapped_column(UtcDateTime)
    finished_at: Mapped[datetime] = mapped_column(UtcDateTime)
    duration_s: Mapped[float | None] = mapped_column(Float)
    input_bytes: Mapped[int | None] = mapped_column(BigInteger)
    validation_status: Mapped[str | None] = mapped_column(String(16))
    validation_detail: Mapped[str | None] = mapped_column(Text)
    output_checksum: Mapped[str | None] = mapped_column(Text)
    repeat: Mapped[int] = mapped_column(Integer)
    params: Mapped[dict[str, str]] = mapped_column(Json)
    overrides: Mapped[dict[str, str]] = mapped_column(Json)
    # configuration keys people filter on most, derived at write time (store/derived.py)
    maps: Mapped[int | None] = mapped_column(Integer)
    reduces: Mapped[int | None] = mapped_column(Integer)
    io_sort_mb: Mapped[int | None] = mapped_column(Integer)
    map_output_codec: Mapped[str | None] = mapped_column(String(64))
    slots: Mapped[int | None] = mapped_column(Integer)
    recorded_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utc_now)
    # last: SQLite reads the columns before a large value without touching its overflow pages
    record: Mapped[dict[str, Any] | None] = mapped_column(Json, deferred=True)


class RunConfig(Base):
    __tablename__ = "run_config"
    __table_args__ = (
        # Only the keys a study set are indexed by key: an index over all ~700 keys of every run
        # dirties ~700 scattered index pages per recorded run (measured: 3-4x slower inserts).
        # Reading a run's configuration, or given keys of given runs, uses the primary key.
        Index("ix_run_config_override_key", "key",
              sqlite_where=text("is_override"), postgresql_where=text("is_override")),
        {"sqlite_with_rowid": False},
    )

    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"),
                                        primary_key=True)
    key: Mapped[str] = mapped_column(String(400), primary_key=True)
    value: Mapped[str | None] = mapped_column(Text)
    is_override: Mapped[bool] = mapped_column(Boolean, default=False)


class Job(Base):
    __tablename__ = "jobs"
    __table_args__ = (Index("ix_jobs_run_id_seq", "run_id", "seq"), _NO_REUSE)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    phase: Mapped[str | None] = mapped_column(String(16))
    job_id: Mapped[str | None] = mapped_column(String(200))
    name: Mapped[str | None] = mapped_column(Text)
    status: Mapped[str | None] = mapped_column(String(16))
    submit_ms: Mapped[int | None] = mapped_column(BigInteger)
    start_ms: Mapped[int | None] = mapped_column(BigInteger)
    finish_ms: Mapped[int | None] = mapped_column(BigInteger)
    done_ms: Mapped[int | None] = mapped_column(BigInteger)
    maps: Mapped[int | None] = mapped_column(Integer)
    reduces: Mapped[int | None] = mapped_column(Integer)


class Task(Base):
    __tablename__ = "tasks"

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    job_id: Mapped[int] = mapped_column(ForeignKey("jobs.id", ondelete="CASCADE"), index=True)
    task_id: Mapped[str] = mapped_column(String(200))
    type: Mapped[str | None] = mapped_column(String(16))
    status: Mapped[str | None] = mapped_column(String(16))
    start_ms: Mapped[int | None] = mapped_column(BigInteger)
    finish_ms: Mapped[int | None] = mapped_column(BigInteger)


class Counter(Base):
    __tablename__ = "counters"
    __table_args__ = ({"sqlite_with_rowid": False},)

    job_id: Mapped[int] = mapped_column(ForeignKey("jobs.id", ondelete="CASCADE"),
                                        primary_key=True)
    group_name: Mapped[str] = mapped_column(String(300), primary_key=True)
    name: Mapped[str] = mapped_column(String(300), primary_key=True)
    value: Mapped[int] = mapped_column(BigInteger)


class MetricSampleRow(Base):
    __tablename__ = "metric_samples"
    __table_args__ = (Index("ix_metric_samples_run_id_t_ms", "run_id", "t_ms"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"))
    t_ms: Mapped[int] = mapped_column(BigInteger)
    interval_s: Mapped[float] = mapped_column(Float)
    cpu_user: Mapped[float | None] = mapped_column(Float)
    cpu_system: Mapped[float | None] = mapped_column(Float)
    cpu_iowait: Mapped[float | None] = mapped_column(Float)
    cpu_steal: Mapped[float | None] = mapped_column(Float)
    cores: Mapped[list[list[float | None]] | None] = mapped_column(Json)
    mem_used_bytes: Mapped[int | None] = mapped_column(BigInteger)
    mem_available_bytes: Mapped[int | None] = mapped_column(BigInteger)
    disk_read_bytes: Mapped[int | None] = mapped_column(BigInteger)
    disk_write_bytes: Mapped[int | None] = mapped_column(BigInteger)
    disk_read_ops: Mapped[int | None] = mapped_column(BigInteger)
    disk_write_ops: Mapped[int | None] = mapped_column(BigInteger)
    net_rx_bytes: Mapped[int | None] = mapped_column(BigInteger)
    net_tx_bytes: Mapped[int | None] = mapped_column(BigInteger)
    proc_cpu_percent: Mapped[float | None] = mapped_column(Float)
    proc_rss_bytes: Mapped[int | None] = mapped_column(BigInteger)
    proc_count: Mapped[int | None] = mapped_column(Integer)


class HostSampleRow(Base):
    """Each host's traffic on a real cluster, per sample (metrics/hosts.py). A table added without a
    new schema version: a database made before it gets it when next opened, and nothing else
    changes."""

    __tablename__ = "host_samples"
    __table_args__ = (Index("ix_host_samples_run_id_host_t_ms", "run_id", "host", "t_ms"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"))
    host: Mapped[str] = mapped_column(String(100))
    t_ms: Mapped[int] = mapped_column(BigInteger)
    interval_s: Mapped[float] = mapped_column(Float)
    net_rx_bytes: Mapped[int] = mapped_column(BigInteger)
    net_tx_bytes: Mapped[int] = mapped_column(BigInteger)
    disk_read_bytes: Mapped[int] = mapped_column(BigInteger)
    disk_write_bytes: Mapped[int] = mapped_column(BigInteger)
