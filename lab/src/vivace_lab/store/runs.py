"""Writing a run (with its configuration, jobs, tasks, counters and samples); reading runs."""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

from sqlalchemy import Select, Text, insert, select, type_coerce
from sqlalchemy.orm import Session

from vivace_lab.record import RunResult
from vivace_lab.store.bulk import bulk_insert
from vivace_lab.store.coltypes import from_epoch_ms
from vivace_lab.store.derived import derived_columns
from vivace_lab.store.info import JobInfo, RunDetail, RunInfo, TaskInfo
from vivace_lab.store.samples import insert_host_samples, insert_samples
from vivace_lab.store.schema import Cluster, Counter, Job, Run, RunConfig, Task

_RUNS = Run.__table__
_JOBS = Job.__table__

#: run ids per IN (...) list when reading configuration values of many runs
ID_CHUNK = 500


def insert_run(session: Session, result: RunResult, cluster_id: int,
               study_id: int | None) -> int:
    """Insert the run and everything under it in the session's transaction; returns the run id."""
    record = result.record or {}
    configuration = {str(k): _text(v) for k, v in (record.get("configuration") or {}).items()}
    overrides = {str(k): _text(v) for k, v in (result.overrides or {}).items()}
    params = {str(k): _text(v) for k, v in (result.params or {}).items()}

    conn = session.connection()
    # Core statements with separate parameters: compiled once, cached for every later run
    run_id = conn.execute(insert(_RUNS).returning(_RUNS.c.id), dict(
        study_id=study_id,
        cluster_id=cluster_id,
        workload=result.workload,
        engine=result.engine,
        status=result.status.lower(),
        failure=result.failure,
        started_at=from_epoch_ms(result.started_ms),
        finished_at=from_epoch_ms(result.finished_ms),
        duration_s=_duration_s(result),
        input_bytes=result.input_bytes,
        validation_status=result.validation_status,
        validation_detail=result.validation_detail,
        output_checksum=result.output_checksum,
        repeat=result.repeat,
        params=params,
        overrides=overrides,
        record=result.record,
        **derived_columns(params, overrides, configuration),
    )).scalar_one()

    # the effective configuration wins over the override that asked for a value (it is what ran);
    # overrides fill in where there is no record (a run that failed before the driver wrote one)
    merged = {**overrides, **configuration}
    bulk_insert(conn, RunConfig.__table__, ("run_id", "key", "value", "is_override"),
                ((run_id, key, value, key in overrides) for key, value in merged.items()))

    tasks: list[tuple] = []
    counters: list[tuple] = []
    for seq, job in enumerate(record.get("jobs") or []):
        job_pk = conn.execute(insert(_JOBS).returning(_JOBS.c.id), dict(
            run_id=run_id, seq=seq, phase=job.get("phase"), job_id=job.get("job_id"),
            name=job.get("name"), status=job.get("status"), submit_ms=job.get("submit_ms"),
            start_ms=job.get("start_ms"), finish_ms=job.get("finish_ms"),
            done_ms=job.get("done_ms"), maps=job.get("maps"), reduces=job.get("reduces"),
        )).scalar_one()
        for task in job.get("tasks") or []:
            tasks.append((job_pk, task.get("task_id"), task.get("type"), task.get("status"),
                          task.get("start_ms"), task.get("finish_ms")))
        for group, values in (job.get("counters") or {}).items():
            for name, value in (values or {}).items():
                counters.append((job_pk, group, name, value))
    bulk_insert(conn, Task.__table__,
                ("job_id", "task_id", "type", "status", "start_ms", "finish_ms"), tasks)
    bulk_insert(conn, Counter.__table__, ("job_id", "group_name", "name", "value"), counters)
    insert_samples(conn, run_id, result.samples)
    insert_host_samples(conn, run_id, result.host_samples)
    return run_id


def _duration_s(result: RunResult) -> float | None:
    """The run's timed duration; when the result gives none, the run phase's wall-clock span."""
    if result.duration_s is not None:
        return float(result.duration_s)
    if result.started_ms is not None and result.finished_ms is not None \
            and result.finished_ms >= result.started_ms:
        return (result.finished_ms - result.started_ms) / 1000.0
    return None


def _text(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


# ---------------------------------------------------------------------------------------------
# reading

_INFO_COLUMNS = (
    Run.id, Run.study_id, Cluster.name, Run.workload, Run.engine, Run.status, Run.failure,
    Run.started_at, Run.finished_at, Run.duration_s, Run.input_bytes, Run.validation_status,
    Run.validation_detail, Run.output_checksum, Run.repeat,
    # as stored: decoded below, once per distinct text (a study's runs share a few)
    type_coerce(Run.params, Text).label("params"),
    type_coerce(Run.overrides, Text).label("overrides"),
    Run.maps, Run.reduces, Run.io_sort_mb, Run.map_output_codec, Run.slots,
)


def runs_query(*, study_id: int | None = None, workload: str | None = None,
               engine: str | None = None, status: str | None = None,
               cluster: str | None = None) -> Select:
    """SELECT of the RunInfo columns, filtered, in run id order."""
    query = select(*_INFO_COLUMNS).join(Cluster, Cluster.id == Run.cluster_id)
    if study_id is not None:
        query = query.where(Run.study_id == study_id)
    if workload is not None:
        query = query.where(Run.workload == workload)
    if engine is not None:
        query = query.where(Run.engine == engine)
    if status is not None:
        query = query.where(Run.status == status.lower())
    if cluster is not None:
        query = query.where(Cluster.name == cluster)
    return query.order_by(Run.id)


def read_runs(session: Session, **filters) -> list[RunInfo]:
    return read_run_rows(session, runs_query(**filters))


def read_run_rows(session: Session, query: Select) -> list[RunInfo]:
    """The runs a query built on ``runs_query()`` selects (more conditions, another order, a
    page of it), as RunInfo."""
    decode = _JsonMemo()
    return [_run_info(row, decode) for row in session.execute(query)]


_INFO_NAMES = [column.name for column in _INFO_COLUMNS]
_PARAMS, _OVERRIDES = _INFO_NAMES.index("params"), _INFO_NAMES.index("overrides")


def _run_info(row, decode: _JsonMemo, cls=RunInfo, **extra):
    values = list(row)
    values[_PARAMS] = decode(values[_PARAMS])
    values[_OVERRIDES] = decode(values[_OVERRIDES])
    return cls(*values, **extra)


class _JsonMemo:
    """JSON text to a fresh dict, parsing each distinct text once. PostgreSQL's driver hands
    JSONB over already decoded; those get copied."""

    def __init__(self) -> None:
        self._seen: dict[str, dict] = {}

    def __call__(self, value):
        if value is None:
            return {}
        if not isinstance(value, str):
            return dict(value)
        decoded = self._seen.get(value)
        if decoded is None:
            decoded = self._seen[value] = json.loads(value)
        return dict(decoded)


def read_config_values(session: Session, keys, **filters) -> dict[int, dict[str, str | None]]:
    keys = list(dict.fromkeys(keys))
    values: dict[int, dict[str, str | None]] = {}
    if not keys:
        return values
    run_ids = session.scalars(runs_query(**filters).with_only_columns(Run.id)).all()
    return read_config_values_of(session, run_ids, keys)


def read_config_values_of(session: Session, run_ids, keys) -> dict[int, dict[str, str | None]]:
    """run id -> {key: effective value} for the given runs and keys."""
    keys = list(dict.fromkeys(keys))
    values: dict[int, dict[str, str | None]] = {}
    if not keys:
        return values
    # primary-key lookups (run_id, key), a slice of runs at a time; left to itself a query
    # planner may scan the whole table (~700 rows per run) for the keys instead
    for start in range(0, len(run_ids), ID_CHUNK):
        chunk = run_ids[start:start + ID_CHUNK]
        query = select(RunConfig.run_id, RunConfig.key, RunConfig.value).where(
            RunConfig.run_id.in_(chunk), RunConfig.key.in_(keys))
        for run_id, key, value in session.execute(query):
            values.setdefault(run_id, {})[key] = value
    return values


def read_run(session: Session, run_id: int, job_detail: bool = True) -> RunDetail:
    row = session.execute(select(*_INFO_COLUMNS, Run.record)
                          .join(Cluster, Cluster.id == Run.cluster_id)
                          .where(Run.id == run_id)).one_or_none()
    if row is None:
        raise KeyError(f"no run {run_id}")
    configuration = dict(session.execute(
        select(RunConfig.key, RunConfig.value).where(RunConfig.run_id == run_id)
        .order_by(RunConfig.key)).all())
    return _run_info(row[:-1], _JsonMemo(), RunDetail, configuration=configuration,
                     jobs=_jobs(session, run_id, job_detail), record=row[-1])


def _jobs(session: Session, run_id: int, detail: bool = True) -> list[JobInfo]:
    job_rows = session.execute(
        select(Job.id, Job.phase, Job.job_id, Job.name, Job.status, Job.submit_ms, Job.start_ms,
               Job.finish_ms, Job.done_ms, Job.maps, Job.reduces)
        .where(Job.run_id == run_id).order_by(Job.seq)).all()
    if not job_rows or not detail:
        return [JobInfo(*row[1:]) for row in job_rows]
    ids = [row[0] for row in job_rows]
    tasks: dict[int, list[TaskInfo]] = defaultdict(list)
    for row in session.execute(
            select(Task.job_id, Task.task_id, Task.type, Task.status, Task.start_ms,
                   Task.finish_ms).where(Task.job_id.in_(ids)).order_by(Task.id)):
        tasks[row[0]].append(TaskInfo(*row[1:]))
    counters: dict[int, dict[str, dict[str, int]]] = defaultdict(lambda: defaultdict(dict))
    for job_pk, group, name, value in session.execute(
            select(Counter.job_id, Counter.group_name, Counter.name, Counter.value)
            .where(Counter.job_id.in_(ids)).order_by(Counter.group_name, Counter.name)):
        counters[job_pk][group][name] = value
    return [JobInfo(*row[1:], counters={g: dict(v) for g, v in counters[row[0]].items()},
                    tasks=tasks[row[0]]) for row in job_rows]
