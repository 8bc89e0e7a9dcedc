"""Studies: a queue planned once, resumed, refused when the spec changed, restarted on request."""

from __future__ import annotations

import pytest
from rundata import terasort_result

from vivace_lab.plan.planned import PlannedRun
from vivace_lab.store import Store, StudyConflict

SPEC = """\
name: sort-buffer
workloads: [terasort]
engines: [vivace, hadoop-local]
grid:
  mapreduce.task.io.sort.mb: [16, 64]
repeats: 2
"""


def plan(engines=("vivace", "hadoop-local"), sort_mb=("16", "64"), repeats=2) -> list[PlannedRun]:
    queue = []
    for engine in engines:
        for mb in sort_mb:
            for repeat in range(repeats):
                queue.append(PlannedRun(
                    seq=len(queue), workload="terasort", engine=engine,
                    params={"rows": "100000", "maps": "2", "reduces": "1"},
                    overrides={"mapreduce.task.io.sort.mb": mb}, repeat=repeat))
    return queue


def result_for(planned: PlannedRun):
    return terasort_result(engine=planned.engine, repeat=planned.repeat,
                           overrides=planned.overrides, sample_count=2)


def test_planned_run_key_is_stable_and_ignores_seq():
    a = PlannedRun(3, "terasort", "vivace", {"rows": "10", "maps": "2"}, {"x.y": "1"}, 1)
    b = PlannedRun(9, "terasort", "vivace", {"maps": "2", "rows": "10"}, {"x.y": "1"}, 1)
    assert a.key == b.key
    assert a.key == ('{"engine":"vivace","overrides":{"x.y":"1"},"params":{"maps":"2",'
                     '"rows":"10"},"repeat":1,"workload":"terasort"}')
    assert PlannedRun(3, "terasort", "vivace", {"rows": "10", "maps": "2"}, {"x.y": "1"}, 2).key \
        != a.key
    assert len({a, b, a}) == 2  # hashable although params are dicts
    with pytest.raises(AttributeError):
        a.seq = 4


def test_open_new_study_then_resume(store):
    queue = plan()
    study = store.open_study("sort-buffer", SPEC, 42, queue)
    assert (study.name, study.spec_text, study.seed, study.status) == (
        "sort-buffer", SPEC, 42, "pending")
    assert (study.planned, study.done, study.pending) == (8, 0, 8)
    assert store.pending_runs(study.id) == queue

    again = store.open_study("sort-buffer", SPEC, 42, plan())
    assert again.id == study.id
    assert store.studies() == [again]


def test_pending_runs_after_some_are_recorded(store_url):
    with Store(store_url) as store:
        queue = plan()
        study = store.open_study("sort-buffer", SPEC, 42, queue)
        made = {}
        for planned in queue[:3]:
            made[planned.seq] = store.record_run(result_for(planned), study.id, planned.seq)
        assert store.pending_runs(study.id) == queue[3:]
        [info] = store.studies()
        assert (info.status, info.done, info.pending) == ("running", 3, 5)
        assert [r.id for r in store.runs(study_id=study.id)] == list(made.values())

    # a new process resumes where the last one stopped
    with Store(store_url) as store:
        study = store.open_study("sort-buffer", SPEC, 42, plan())
        assert [p.seq for p in store.pending_runs(study.id)] == [3, 4, 5, 6, 7]
        for planned in store.pending_runs(study.id):
            store.record_run(result_for(planned), study.id, planned.seq)
        assert store.pending_runs(study.id) == []
        [info] = store.studies()
        assert (info.status, info.done, info.planned) == ("complete", 8, 8)
        assert len(store.runs(study_id=study.id)) == 8
        runs = store.runs(study_id=study.id)
        assert sorted(r.io_sort_mb for r in runs) == [16] * 4 + [64] * 4


def test_a_changed_spec_or_seed_conflicts(store):
    store.open_study("sort-buffer", SPEC, 42, plan())
    with pytest.raises(StudyConflict) as conflict:
        store.open_study("sort-buffer", SPEC.replace("repeats: 2", "repeats: 3"), 42,
                         plan(repeats=3))
    message = str(conflict.value)
    assert "sort-buffer" in message and "another study name" in message and "--restart" in message
    with pytest.raises(StudyConflict, match="seed"):
        store.open_study("sort-buffer", SPEC, 43, plan())
    # nothing changed
    [info] = store.studies()
    assert (info.seed, info.planned) == (42, 8)


def test_restart_forgets_the_queue_but_keeps_the_runs(store):
    queue = plan()
    study = store.open_study("sort-buffer", SPEC, 42, queue)
    kept = [store.record_run(result_for(p), study.id, p.seq) for p in queue[:2]]
    store.restart_study("sort-buffer")
    assert store.studies() == []
    runs = store.runs()
    assert [r.id for r in runs] == kept and all(r.study_id is None for r in runs)

    new_spec = SPEC.replace("[16, 64]", "[32]")
    fresh = store.open_study("sort-buffer", new_spec, 7, plan(sort_mb=("32",)))
    assert fresh.id != study.id and (fresh.planned, fresh.done) == (4, 0)
    assert store.runs(study_id=fresh.id) == []
    with pytest.raises(KeyError, match="no-such-study"):
        store.restart_study("no-such-study")


def test_a_replanned_queue_keeps_what_was_done_by_key(store):
    queue = plan()
    study = store.open_study("sort-buffer", SPEC, 42, queue)
    done = {p.key: store.record_run(result_for(p), study.id, p.seq) for p in queue[:3]}
    # the planner now orders the same runs differently (e.g. a new planner version)
    reordered = [PlannedRun(i, p.workload, p.engine, p.params, p.overrides, p.repeat)
                 for i, p in enumerate(reversed(queue))]
    resumed = store.open_study("sort-buffer", SPEC, 42, reordered)
    assert (resumed.planned, resumed.done) == (8, 3)
    pending = store.pending_runs(study.id)
    assert [p.seq for p in pending] == [0, 1, 2, 3, 4]
    assert {p.key for p in pending} == {p.key for p in queue[3:]}
    assert set(done) == {p.key for p in queue[:3]}


def test_recording_against_the_queue_checks_the_planned_run(store):
    queue = plan()
    study = store.open_study("sort-buffer", SPEC, 42, queue)
    store.record_run(result_for(queue[0]), study.id, 0)
    with pytest.raises(ValueError, match="already done"):
        store.record_run(result_for(queue[0]), study.id, 0)
    with pytest.raises(KeyError, match="no planned run 99"):
        store.record_run(result_for(queue[1]), study.id, 99)
    with pytest.raises(ValueError, match="is terasort on hadoop-local, not terasort on vivace"):
        store.record_run(result_for(queue[1]), study.id, 5)
    with pytest.raises(KeyError, match="no study 12345"):
        store.record_run(result_for(queue[1]), 12345, 1)
    with pytest.raises(ValueError, match="planned_seq needs the study_id"):
        store.record_run(result_for(queue[1]), None, 1)
    # none of the refused runs was stored
    assert len(store.runs()) == 1
    assert [p.seq for p in store.pending_runs(study.id)] == list(range(1, 8))


def test_a_run_may_belong_to_a_study_without_a_planned_run(store):
    study = store.open_study("ad-hoc", "name: ad-hoc\n", 0, [])
    assert study.status == "complete" and study.planned == 0
    run_id = store.record_run(terasort_result(), study.id)
    assert store.run(run_id).study_id == study.id
    with pytest.raises(KeyError):
        store.pending_runs(999)
