"""Studies on one shared mini-cluster: hadoop-yarn, hadoop-tez and vivace-yarn (a Vivace session)
running sleep and terasort on two NodeManagers and two DataNodes, every run validated and stored
with the cluster's shape and start (and the session's); and what an engine cannot run refused by
`vivace lab check` with the spec's line, before anything runs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest
from fastapi.testclient import TestClient

from test_study_cli import _processes_mentioning, lab, write_spec
from vivace_lab import machine
from vivace_lab.store import Store
from vivace_lab.web import create_app

# Every test here runs the Java side (the launcher, the bench driver): not in `vivace test --unit`.
pytestmark = pytest.mark.integration

# Short-lived container JVMs start markedly faster with the client compiler only (as in the
# driver's MiniClusterTest); the AM keeps the heap the cluster gives it.
QUICK_JVM = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"
TWO_NODES = f"""
    name: two-nodes
    repeats: 1
    engines: [hadoop-yarn, hadoop-tez, vivace-yarn]
    cluster: {{nodemanagers: 2, datanodes: 2, nm_memory_mb: 2048, container_mb: 512}}
    workloads:
      - sleep: {{maps: 3, reduces: 1}}
      - terasort: {{rows: 2000, maps: 2, reduces: 1}}
    grid:
      yarn.app.mapreduce.am.command-opts: ["-Xmx384m {QUICK_JVM}"]
      mapreduce.map.java.opts: ["{QUICK_JVM}"]
      mapreduce.reduce.java.opts: ["{QUICK_JVM}"]
"""
FRAMEWORKS = {"hadoop-yarn": "yarn", "hadoop-tez": "yarn-tez", "vivace-yarn": "vivace"}


@pytest.mark.minicluster
def test_yarn_tez_and_a_vivace_session_share_a_two_node_cluster_validated_and_stored_with_its_shape(tmp_path):
    spec = write_spec(tmp_path / "two-nodes.yaml", TWO_NODES)
    home = tmp_path / "home"
    done = subprocess.run([sys.executable, "-m", "vivace_lab", "--home", str(home), "run", str(spec)],
                          capture_output=True, text=True, timeout=2400)
    assert done.returncode == 0, done.stdout + done.stderr

    machine_name, _ = machine.describe()
    cluster = f"{machine_name}-yarn-2x2048m3c-2dn-512m"
    assert f"mini-cluster {cluster} (2 NodeManagers of 2048 MB / 3 vcores, 2 DataNodes, 512 MB containers" \
           in done.stdout
    with Store(f"sqlite:///{home / 'lab.db'}") as store:
        runs = {(run.workload, run.engine): store.run(run.id) for run in store.runs()}
        [description] = [c.description for c in store.clusters() if c.name == cluster]
        client = TestClient(create_app(store))
        page = client.get(f"/runs/{runs[('terasort', 'hadoop-tez')].id}").text
        session_page = client.get(f"/runs/{runs[('terasort', 'vivace-yarn')].id}").text
    assert sorted(runs) == [("sleep", "hadoop-tez"), ("sleep", "hadoop-yarn"), ("sleep", "vivace-yarn"),
                            ("terasort", "hadoop-tez"), ("terasort", "hadoop-yarn"), ("terasort", "vivace-yarn")]
    assert description["minicluster"] == {"nodemanagers": 2, "datanodes": 2, "nm_memory_mb": 2048, "nm_vcores": 3,
                                          "container_mb": 512, "max_am_percent": 0.5,
                                              "session_executors": 1}
    starts = set()
    for (workload, engine), run in runs.items():
        assert run.status == "succeeded", f"{workload} on {engine}: {run.failure}"
        assert run.validation_status == "PASSED"
        assert run.cluster == cluster
        assert run.record["framework"] == FRAMEWORKS[engine]
        assert run.record["work_root"].startswith("hdfs://")
        assert run.record["cluster"]["shape"]["nodemanagers"] == 2
        assert run.record["cluster"]["start_s"] > 0
        starts.add(run.record["cluster"]["started_ms"])
        [job] = [job for job in run.jobs if job.phase == "run"]
        assert len(job.tasks) == {"sleep": 4, "terasort": 3}[workload], job.tasks
    assert len(starts) == 1, "one cluster, started once, ran every run"
    tez_sleep = [job for job in runs[("sleep", "hadoop-tez")].jobs if job.phase == "run"][0]
    assert tez_sleep.counters["org.apache.tez.common.counters.DAGCounter"]["NUM_SUCCEEDED_TASKS"] == 4
    assert runs[("terasort", "hadoop-yarn")].output_checksum == runs[("terasort", "hadoop-tez")].output_checksum \
        == runs[("terasort", "vivace-yarn")].output_checksum

    sessions = {workload: runs[(workload, "vivace-yarn")].record["cluster"]["session"]
                for workload in ("sleep", "terasort")}
    assert sessions["sleep"] == sessions["terasort"], "one session, started once, ran both"
    session = sessions["sleep"]
    assert session["application_id"].startswith("application_") and session["start_s"] > 0
    # 2 NodeManagers of 2048 MB, 512 MB containers: 2-slot executors of 1024 MB, 3 beside the 512 MB master
    assert (session["am_memory_mb"], session["executor_memory_mb"], session["slots_per_executor"],
            session["executors_max"]) == (512, 1024, 2, 3)
    _, timestamp, number = session["application_id"].split("_")
    for workload in ("sleep", "terasort"):
        run = runs[(workload, "vivace-yarn")]
        assert run.record["overrides"]["vivace.master"] == "yarn"
        assert "session" not in runs[(workload, "hadoop-yarn")].record["cluster"]
        for job in run.jobs:
            if job.phase == "run":
                assert job.job_id.startswith(f"job_{timestamp}{number}_"), f"{job.job_id} ran on the session"
    assert f"Vivace session {session['application_id']}: executors of 2 slots and 1024 MB, 1 to 3" in session_page
    stop_log = (home / "minicluster" / "vivace-session" / "session-stop.log").read_text()
    assert f"Stopped Vivace session {session['application_id']}" in stop_log, "the study's end stopped the session"
    assert "mini-cluster: 2 NodeManagers of 2048 MB" in page

    conf = _conf(home / "minicluster" / "client-conf.xml")
    assert conf["yarn.scheduler.include-port-in-node-name"] == "true"
    assert conf["yarn.nodemanager.resource.memory-mb"] == "2048"
    assert conf["mapreduce.map.memory.mb"] == conf["yarn.app.mapreduce.am.resource.mb"] == "512"
    assert _conf(home / "minicluster" / "client-conf-tez.xml")["tez.lib.uris"].endswith("/apps/tez-0.10.5")
    assert not _processes_mentioning(str(home / "minicluster"), exclude=os.getpid()), \
        "the mini-cluster stopped with the study"


def test_lab_check_refuses_a_workload_tez_cannot_run_with_its_line(tmp_path):
    spec = write_spec(tmp_path / "tez.yaml", """
        name: tez-pagerank
        engines: [hadoop-yarn, hadoop-tez]
        workloads:
          - sleep: {maps: 2}
          - pagerank: {pages: 50}
    """)
    done = lab(tmp_path / "home", "check", str(spec))
    assert done.returncode == 2
    assert f"{spec}:5: pagerank is unsupported on hadoop-tez: PageRank decides each iteration" in done.stdout
    assert "'pagerank: {engines: [...]}'" in done.stdout
    fixed = write_spec(tmp_path / "fixed.yaml", (tmp_path / "tez.yaml").read_text().replace(
        "{pages: 50}", "{pages: 50, engines: [hadoop-yarn]}"))
    checked = lab(tmp_path / "home", "check", str(fixed))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "9 runs" in checked.stdout


def _conf(path: Path) -> dict[str, str]:
    root = ElementTree.parse(path).getroot()
    return {prop.findtext("name"): prop.findtext("value") for prop in root.iter("property")}



def test_lab_check_takes_every_driver_workload_on_vivace_yarn_and_refuses_lustre_with_its_line(tmp_path):
    # Every workload of the driver ran on a session when vivace-yarn was added (lab/docs/clusters.md):
    # none is unsupported, so a spec naming them all is checked without complaint.
    from vivace_lab.workloads.catalogue import WORKLOADS

    names = [name for name, workload in WORKLOADS.items() if not any(p.required for p in workload.params)]
    listed = "\n".join(f"  - {name}: {{}}" for name in names)
    spec = write_spec(tmp_path / "session.yaml",
                      f"name: every-workload\nrepeats: 1\nengines: [vivace-yarn]\nworkloads:\n{listed}\n")
    checked = lab(tmp_path / "home", "check", str(spec))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert f"{len(names)} runs" in checked.stdout

    lustre = write_spec(tmp_path / "lustre.yaml", """
        name: session-on-lustre
        engines: [vivace, vivace-yarn]
        lustre_root: /tmp/lustre
        workloads:
          - sleep: {maps: 2}
    """)
    refused = lab(tmp_path / "home", "check", str(lustre))
    assert refused.returncode == 2
    assert (f"{lustre}:3: lustre_root applies to vivace and hadoop-local only; vivace-yarn keep their own "
            "file systems") in refused.stdout
