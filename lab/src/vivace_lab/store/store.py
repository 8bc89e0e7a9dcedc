"""``Store``: the results database's entry point for the CLI, the study runner and the web app."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from vivace_lab.metrics.hosts import HostSample
from vivace_lab.metrics.sample import MetricSample
from vivace_lab.plan.planned import PlannedRun
from vivace_lab.record import RunResult
from vivace_lab.store import clusters as _clusters
from vivace_lab.store import runs as _runs
from vivace_lab.store import studies as _studies
from vivace_lab.store.database import ensure_schema, make_engine, session_factories
from vivace_lab.store.info import ClusterInfo, RunDetail, RunInfo, StudyInfo
from vivace_lab.store.samples import read_host_samples, read_samples
from vivace_lab.store.schema import Cluster, Run


class Store:
    """The results database at ``url``: an SQLite file path, or any SQLAlchemy URL
    (``postgresql+psycopg://user@host/db``; ``postgresql://`` gets psycopg too).

    Everything read comes back as plain dataclasses, usable after the session that read them.
    """

    def __init__(self, url: str) -> None:
        self.url = url
        self._engine = make_engine(url)
        try:
            ensure_schema(self._engine)
        except BaseException:
            self._engine.dispose()
            raise
        self._reader, self._writer = session_factories(self._engine)

    def close(self) -> None:
        self._engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Store({self._engine.url.render_as_string(hide_password=True)!r})"

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self._engine.dialect.name

    @contextmanager
    def _read(self) -> Iterator[Session]:
        with self._reader() as session, session.begin():
            yield session

    @contextmanager
    def reading(self) -> Iterator[Session]:
        """A read-only transaction for queries the Store has no method for (the web app's
        filtered pages and SQL aggregates)."""
        with self._read() as session:
            yield session

    @contextmanager
    def _write(self) -> Iterator[Session]:
        """One transaction: committed when the block ends, rolled back on any exception."""
        with self._writer() as session, session.begin():
            yield session

    def _retry_on_race(self, action):
        """Run a create-if-missing write; a concurrent creator's unique-key win means: try again."""
        try:
            return action()
        except IntegrityError:
            return action()

    # -- clusters --------------------------------------------------------------------------------

    def ensure_cluster(self, name: str, description: dict[str, Any],
                       hourly_price: float | None = None) -> int:
        def action():
            with self._write() as session:
                return _clusters.ensure_cluster(session, name, description, hourly_price)
        return self._retry_on_race(action)

    def set_cluster_price(self, name: str, hourly_price: float) -> None:
        with self._write() as session:
            _clusters.set_cluster_price(session, name, hourly_price)

    def clusters(self) -> list[ClusterInfo]:
        with self._read() as session:
            return _clusters.list_clusters(session)

    # -- studies ---------------------------------------------------------------------------------

    def open_study(self, name: str, spec_text: str, seed: int,
                   planned: Sequence[PlannedRun]) -> StudyInfo:
        """Create the study with its queue, or resume it when ``spec_text`` and ``seed`` match.

        Raises ``StudyConflict`` when a study of that name was planned from another spec or seed.
        """
        def action():
            with self._write() as session:
                study_id = _studies.open_study(session, name, spec_text, seed, planned)
                return _studies.list_studies(session, study_id)[0]
        return self._retry_on_race(action)

    def restart_study(self, name: str) -> None:
        """Forget the study and its queue (a later ``open_study`` plans it anew); its runs stay,
        no longer linked to it. Unknown name: KeyError."""
        with self._write() as session:
            _studies.restart_study(session, name)

    def pending_runs(self, study_id: int) -> list[PlannedRun]:
        """The study's planned runs not yet recorded, in queue order."""
        with self._read() as session:
            return _studies.pending_runs(session, study_id)

    def studies(self) -> list[StudyInfo]:
        with self._read() as session:
            return _studies.list_studies(session)

    def study(self, name: str) -> StudyInfo:
        """The study of that name; KeyError when there is none."""
        for info in self.studies():
            if info.name == name:
                return info
        raise KeyError(f"no study named {name!r}")

    # -- runs ------------------------------------------------------------------------------------

    def record_run(self, result: RunResult, study_id: int | None = None,
                   planned_seq: int | None = None) -> int:
        """Store one run in ONE transaction: the run, its configuration, jobs, tasks, counters,
        metric samples and, with ``planned_seq``, its planned run marked done. Any failure (or
        the process dying) leaves none of it. Returns the new run's id.

        The cluster ``result.cluster`` names is created (no description, no price) if missing.
        """
        if planned_seq is not None and study_id is None:
            raise ValueError("planned_seq needs the study_id it belongs to")
        with self._write() as session:
            if study_id is not None:
                _studies.require_study(session, study_id)
            cluster_id = session.scalar(select(Cluster.id).where(Cluster.name == result.cluster))
            if cluster_id is None:
                cluster_id = _clusters.ensure_cluster(session, result.cluster, {})
            run_id = _runs.insert_run(session, result, cluster_id, study_id)
            if planned_seq is not None:
                _studies.mark_done(session, study_id, planned_seq, run_id, result.workload,
                                   result.engine)
            return run_id

    def runs(self, *, study_id: int | None = None, workload: str | None = None,
             engine: str | None = None, status: str | None = None,
             cluster: str | None = None) -> list[RunInfo]:
        """Runs matching every filter given, in id (recording) order."""
        with self._read() as session:
            return _runs.read_runs(session, study_id=study_id, workload=workload, engine=engine,
                                   status=status, cluster=cluster)

    def run(self, run_id: int, job_detail: bool = True) -> RunDetail:
        """One run with its configuration, jobs, tasks and counters; KeyError when unknown. Without
        ``job_detail`` its jobs come without tasks and counters: a replay of a thousand jobs reads
        in a fraction of the time."""
        with self._read() as session:
            return _runs.read_run(session, run_id, job_detail)

    def config_values(self, keys: Sequence[str], **filters) -> dict[int, dict[str, str | None]]:
        """run id -> {key: effective value} for the given configuration keys, for the runs the
        filters of ``runs()`` select (keys a run has no value for are absent)."""
        with self._read() as session:
            return _runs.read_config_values(session, keys, **filters)

    def host_samples(self, run_id: int) -> list[HostSample]:
        """Each host's traffic samples of the run (a run on a real cluster), in time order."""
        with self._read() as session:
            if session.scalar(select(Run.id).where(Run.id == run_id)) is None:
                raise KeyError(f"no run {run_id}")
            return read_host_samples(session.connection(), run_id)

    def samples(self, run_id: int) -> list[MetricSample]:
        """The run's metric samples in time order; KeyError when the run is unknown."""
        with self._read() as session:
            if session.scalar(select(Run.id).where(Run.id == run_id)) is None:
                raise KeyError(f"no run {run_id}")
            return read_samples(session.connection(), run_id)
