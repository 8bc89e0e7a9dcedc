"""Studies and their run queues: stored once, resumed later, restarted on request."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.orm import Session

from vivace_lab.plan.planned import PlannedRun
from vivace_lab.store.info import StudyInfo
from vivace_lab.store.schema import (
    DONE,
    PENDING,
    STUDY_COMPLETE,
    STUDY_PENDING,
    STUDY_RUNNING,
    PlannedRunRow,
    Run,
    Study,
)


class StudyConflict(Exception):
    """A study of that name exists with another spec or seed."""


def open_study(session: Session, name: str, spec_text: str, seed: int,
               planned: Sequence[PlannedRun]) -> int:
    """Id of the study, created with its queue when new, resumed when the spec and seed match."""
    seqs = [p.seq for p in planned]
    if len(set(seqs)) != len(seqs):
        raise ValueError(f"study {name!r}: planned runs repeat a seq number")
    study = session.scalar(select(Study).where(Study.name == name))
    if study is None:
        study = Study(name=name, spec_text=spec_text, seed=seed)
        session.add(study)
        session.flush()
        _insert_queue(session, study.id, [(p, PENDING, None) for p in planned])
        _update_status(session, study.id)
        return study.id
    if study.spec_text != spec_text or study.seed != seed:
        what = "spec" if study.spec_text != spec_text else "seed"
        if study.spec_text != spec_text and study.seed != seed:
            what = "spec and seed"
        raise StudyConflict(
            f"study {name!r} already exists with a different {what} "
            f"(stored seed {study.seed}, given {seed}). To keep both, choose another study name; "
            f"to discard its queue and plan it anew from this spec, run it again with --restart "
            f"(runs already made are kept, unlinked from the study).")
    _reconcile_queue(session, study.id, planned)
    _update_status(session, study.id)
    return study.id


def _reconcile_queue(session: Session, study_id: int, planned: Sequence[PlannedRun]) -> None:
    """Make the stored queue the given plan, keeping what was done, matched by ``PlannedRun.key``.

    The same spec and seed normally plan the same queue and nothing changes. Should the planner
    now order or number the runs differently, each done entry stays done on the planned run with
    its key; a stored entry whose key the new plan lacks is dropped (its run stays in the study).
    """
    stored = session.execute(
        select(PlannedRunRow.seq, PlannedRunRow.key, PlannedRunRow.state, PlannedRunRow.run_id)
        .where(PlannedRunRow.study_id == study_id).order_by(PlannedRunRow.seq)).all()
    if [(row.seq, row.key) for row in stored] == [(p.seq, p.key) for p in planned]:
        return
    done_by_key: dict[str, list[int | None]] = defaultdict(list)
    for row in stored:
        if row.state == DONE:
            done_by_key[row.key].append(row.run_id)
    queue = []
    for p in sorted(planned, key=lambda p: p.seq):
        runs_done = done_by_key.get(p.key)
        if runs_done:
            queue.append((p, DONE, runs_done.pop(0)))
        else:
            queue.append((p, PENDING, None))
    session.execute(delete(PlannedRunRow).where(PlannedRunRow.study_id == study_id))
    _insert_queue(session, study_id, queue)


def _insert_queue(session: Session, study_id: int, queue) -> None:
    rows = [{"study_id": study_id, "seq": p.seq, "key": p.key, "workload": p.workload,
             "engine": p.engine, "params": dict(p.params), "overrides": dict(p.overrides),
             "repeat": p.repeat, "state": state, "run_id": run_id}
            for p, state, run_id in queue]
    if rows:
        session.connection().execute(insert(PlannedRunRow.__table__), rows)


def restart_study(session: Session, name: str) -> None:
    """Forget the study and its queue; its runs stay, with no study."""
    study_id = session.scalar(select(Study.id).where(Study.name == name))
    if study_id is None:
        raise KeyError(f"no study named {name!r}")
    session.execute(delete(PlannedRunRow).where(PlannedRunRow.study_id == study_id))
    session.execute(update(Run).where(Run.study_id == study_id).values(study_id=None))
    session.execute(delete(Study).where(Study.id == study_id))


def pending_runs(session: Session, study_id: int) -> list[PlannedRun]:
    if session.get(Study, study_id) is None:
        raise KeyError(f"no study {study_id}")
    rows = session.execute(
        select(PlannedRunRow.seq, PlannedRunRow.workload, PlannedRunRow.engine,
               PlannedRunRow.params, PlannedRunRow.overrides, PlannedRunRow.repeat)
        .where(PlannedRunRow.study_id == study_id, PlannedRunRow.state == PENDING)
        .order_by(PlannedRunRow.seq))
    return [PlannedRun(seq=seq, workload=workload, engine=engine, params=dict(params or {}),
                       overrides=dict(overrides or {}), repeat=repeat)
            for seq, workload, engine, params, overrides, repeat in rows]


def mark_done(session: Session, study_id: int, planned_seq: int, run_id: int,
              workload: str, engine: str) -> None:
    """Mark the planned run done by ``run_id``; it must be pending, for that workload and engine."""
    row = session.scalar(
        select(PlannedRunRow)
        .where(PlannedRunRow.study_id == study_id, PlannedRunRow.seq == planned_seq))
    if row is None:
        raise KeyError(f"study {study_id} has no planned run {planned_seq}")
    if row.state != PENDING:
        raise ValueError(
            f"planned run {planned_seq} of study {study_id} is already done (run {row.run_id})")
    if (row.workload, row.engine) != (workload, engine):
        raise ValueError(
            f"planned run {planned_seq} of study {study_id} is {row.workload} on {row.engine}, "
            f"not {workload} on {engine}")
    row.state = DONE
    row.run_id = run_id
    session.flush()
    _update_status(session, study_id)


def require_study(session: Session, study_id: int) -> None:
    if session.get(Study, study_id) is None:
        raise KeyError(f"no study {study_id}")


def _update_status(session: Session, study_id: int) -> None:
    counts = dict(session.execute(
        select(PlannedRunRow.state, func.count()).where(PlannedRunRow.study_id == study_id)
        .group_by(PlannedRunRow.state)).all())
    pending, done = counts.get(PENDING, 0), counts.get(DONE, 0)
    status = STUDY_COMPLETE if pending == 0 else STUDY_RUNNING if done else STUDY_PENDING
    session.execute(update(Study).where(Study.id == study_id).values(status=status))


def list_studies(session: Session, study_id: int | None = None) -> list[StudyInfo]:
    planned = func.count(PlannedRunRow.id)
    done = func.count(PlannedRunRow.id).filter(PlannedRunRow.state == DONE)
    query = (select(Study.id, Study.name, Study.spec_text, Study.seed, Study.status,
                    Study.created, planned, done)
             .outerjoin(PlannedRunRow, PlannedRunRow.study_id == Study.id)
             .group_by(Study.id, Study.name, Study.spec_text, Study.seed, Study.status,
                       Study.created)
             .order_by(Study.id))
    if study_id is not None:
        query = query.where(Study.id == study_id)
    return [StudyInfo(*row) for row in session.execute(query)]
