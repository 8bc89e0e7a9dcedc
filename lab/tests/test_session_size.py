"""The size of vivace-yarn's session on each cluster shape, and how its jobs are known by their ids:
what the session may hold of the cluster is what MapReduce on YARN may hold there."""

from __future__ import annotations

from vivace_lab.engines.cluster_shape import ClusterShape
from vivace_lab.engines.session import SessionSize, YarnSession
from vivace_lab.swim_study import swim_cluster


def test_executors_of_two_container_slots_as_many_as_fit_beside_the_master():
    default = SessionSize.for_shape(ClusterShape())  # one 3072 MB NodeManager, 1024 MB containers
    assert (default.am_memory_mb, default.executor_memory_mb, default.slots, default.executors_max) == \
        (1024, 2048, 2, 1)
    stac = SessionSize.for_shape(ClusterShape(nodemanagers=3, datanodes=3))
    assert (stac.executor_memory_mb, stac.executors_min, stac.executors_max) == (2048, 1, 3)
    swim = SessionSize.for_shape(swim_cluster(3))  # 4096 MB NodeManagers, 512 MB containers
    assert (swim.am_memory_mb, swim.executor_memory_mb, swim.executors_max) == (512, 1024, 11)


def test_a_shape_keeps_its_session_executors_warm_from_the_start_at_most_what_fits():
    swim = SessionSize.for_shape(swim_cluster(3))
    assert (swim.executors_min, swim.executors_max) == (3, 11), "SWIM's replay: one warm executor per NodeManager"
    keys = swim.keys()
    assert keys["vivace.session.executors.min"] == "3"
    assert int(keys["vivace.session.start.wait.ms"]) > 0, "`session start` returns once they have joined"
    crowded = SessionSize.for_shape(ClusterShape(nodemanagers=3, datanodes=3, session_executors=9))
    assert (crowded.executors_min, crowded.executors_max) == (3, 3)
    assert ClusterShape(session_executors=2).name("m").endswith("-1024m-warm2")
    assert "-warm" not in ClusterShape().name("m"), "the default shape keeps its stored name"
    assert "2 executors kept warm" in ClusterShape(session_executors=2).summary()


def test_a_nodemanager_of_one_container_gets_one_slot_executors_and_the_keys_say_so():
    size = SessionSize.for_shape(ClusterShape(nodemanagers=2, nm_memory_mb=1024, container_mb=1024))
    assert (size.slots, size.executor_memory_mb, size.executors_max) == (1, 1024, 1)
    keys = size.keys()
    assert keys["vivace.session.executor.slots"] == "1"
    assert keys["vivace.session.executor.memory.mb"] == "1024"
    assert int(keys["vivace.session.idle.timeout.ms"]) >= 24 * 3600 * 1000, "the lab, not the timeout, ends it"


def test_the_session_numbers_its_jobs_after_its_application(tmp_path):
    session = YarnSession(tmp_path / "conf.xml", SessionSize.for_shape(ClusterShape()), tmp_path)
    assert session.job_id_prefix() is None
    session.application_id = "application_1795634590748_0002"
    assert session.job_id_prefix() == "job_17956345907480002_"
    session.application_id = "application_1795634590748_12345"
    assert session.job_id_prefix() == "job_179563459074812345_"
