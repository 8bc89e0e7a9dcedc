"""The results database: runs, their configurations, jobs, tasks, counters and metric samples,
clusters with prices, and study queues. SQLite file by default, PostgreSQL by URL.

    store = Store("results/lab.db")            # or Store("postgresql+psycopg://user@host/lab")
    study = store.open_study("sort-grid", spec_text, seed, planned)
    for planned_run in store.pending_runs(study.id):
        store.record_run(run(planned_run), study.id, planned_run.seq)

Tables: lab/docs/schema.md.
"""

from vivace_lab.store.database import SchemaVersionError
from vivace_lab.store.export import export_runs, hibench_report
from vivace_lab.store.info import ClusterInfo, JobInfo, RunDetail, RunInfo, StudyInfo, TaskInfo
from vivace_lab.store.store import Store
from vivace_lab.store.studies import StudyConflict

__all__ = [
    "ClusterInfo",
    "JobInfo",
    "RunDetail",
    "RunInfo",
    "SchemaVersionError",
    "Store",
    "StudyConflict",
    "StudyInfo",
    "TaskInfo",
    "export_runs",
    "hibench_report",
]
