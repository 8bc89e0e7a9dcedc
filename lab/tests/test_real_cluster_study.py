"""A study on a real cluster (`vivace cluster`, docs/real-cluster.md): two worker hosts in network
namespaces with 1 Gbit links, brought up by the lab for the study and down after it, a tiny
TeraSort on MapReduce on YARN, on Tez (staged on the cluster's HDFS by the lab) and on a Vivace
session through the cluster's client configuration,
each run stored with each host's traffic and shown per host on its page; nothing of the cluster
left behind."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import psutil
import pytest
from fastapi.testclient import TestClient

from test_cluster_study import QUICK_JVM
from test_study_cli import write_spec
from vivace_lab import machine
from vivace_lab.engines.real_cluster import namespaces_problem
from vivace_lab.store import Store
from vivace_lab.web import create_app

pytestmark = [pytest.mark.integration, pytest.mark.slow,
              pytest.mark.skipif(namespaces_problem() is not None,
                                 reason=f"network namespaces cannot be made here: {namespaces_problem()}")]

# The containers of MapReduce and Tez compile with C1 only, as in the mini-cluster's study
# (test_cluster_study.py); the daemons do under `vivace test` (HADOOP_OPTS).
TWO_HOSTS = f"""
    name: two-hosts
    repeats: 1
    engines: [hadoop-yarn, hadoop-tez, vivace-yarn]
    cluster: {{type: real, hosts: 2, link: 1gbit, cores: 2, memory_mb: 2048}}
    workloads:
      - terasort: {{rows: 20000, maps: 2, reduces: 2}}
    grid:
      yarn.app.mapreduce.am.command-opts: ["-Xmx384m {QUICK_JVM}"]
      mapreduce.map.java.opts: ["{QUICK_JVM}"]
      mapreduce.reduce.java.opts: ["{QUICK_JVM}"]
"""


def test_a_study_on_a_two_host_real_cluster_stores_each_hosts_traffic_and_leaves_nothing(tmp_path):
    spec = write_spec(tmp_path / "two-hosts.yaml", TWO_HOSTS)
    home = tmp_path / "home"
    done = subprocess.run([sys.executable, "-m", "vivace_lab", "--home", str(home), "run", str(spec)],
                          capture_output=True, text=True, timeout=3600)
    with Store(f"sqlite:///{home / 'lab.db'}") as store:
        hosts = {h for run in store.runs() for h in ((store.run(run.id).record or {}).get("cluster") or {})
                 .get("hosts", [])}
    left = _left_behind(home / "realcluster", hosts)
    assert done.returncode == 0, done.stdout + done.stderr
    assert hosts, "the runs name the cluster's hosts"
    assert not left, f"left behind by the study: {left}"

    machine_name, _ = machine.describe()
    cluster = f"{machine_name}-real-2x2048m2c-1gbit"
    assert f"cluster {cluster} (real cluster of 2 worker hosts" in done.stdout
    assert "network: bytes each timed job moved" in done.stdout
    with Store(f"sqlite:///{home / 'lab.db'}") as store:
        runs = {run.engine: store.run(run.id) for run in store.runs()}
        host_samples = {engine: store.host_samples(run.id) for engine, run in runs.items()}
        [description] = [c.description for c in store.clusters() if c.name == cluster]
        page = TestClient(create_app(store)).get(f"/runs/{runs['vivace-yarn'].id}").text
    assert sorted(runs) == ["hadoop-tez", "hadoop-yarn", "vivace-yarn"]
    assert description["real_cluster"] == {"hosts": 2, "link": "1gbit", "cores": 2, "memory_mb": 2048}
    frameworks = {"hadoop-yarn": "yarn", "hadoop-tez": "yarn-tez", "vivace-yarn": "vivace"}
    for engine, run in runs.items():
        assert run.status == "succeeded", f"terasort on {engine}: {run.failure}"
        assert run.validation_status == "PASSED"
        assert run.cluster == cluster
        assert run.record["framework"] == frameworks[engine]
        assert run.record["cluster"]["link"] == "1gbit"
        hosts = run.record["cluster"]["hosts"]
        assert len(hosts) == 3 and hosts[0].endswith("-master"), hosts
        assert {s.host for s in host_samples[engine]} == set(hosts)
        # the job read its input on the workers and wrote its output there: traffic on their links
        workers = [h for h in hosts if "-worker" in h]
        assert sum(s.net_rx_bytes + s.net_tx_bytes for s in host_samples[engine] if s.host in workers) > 0
        assert sum(s.disk_write_bytes for s in host_samples[engine] if s.host in workers) > 0
    assert runs["hadoop-yarn"].output_checksum == runs["vivace-yarn"].output_checksum == \
        runs["hadoop-tez"].output_checksum
    assert runs["vivace-yarn"].record["cluster"]["session"]["application_id"].startswith("application_")
    assert 'id="host-traffic"' in page and 'id="network-floor"' in page
    for host in runs["vivace-yarn"].record["cluster"]["hosts"]:
        assert f"<td>{host}</td>" in page


def _left_behind(cluster_dir, hosts: set[str]) -> list[str]:
    """The cluster's namespaces, /etc/netns folders and processes (its folder in their command
    line) still there, and its state file."""
    namespaces = set(subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout.split())
    left = [f"namespace {host}" for host in sorted(hosts & namespaces)]
    left += [f"/etc/netns/{host}" for host in sorted(hosts) if (Path("/etc/netns") / host).exists()]
    if (cluster_dir / "cluster.properties").exists():
        left.append(f"its state file {cluster_dir / 'cluster.properties'} (`down` removes it last)")
    for process in psutil.process_iter(["cmdline"]):
        if str(cluster_dir) in " ".join(process.info["cmdline"] or []):
            left.append(f"process {process.pid}: {' '.join(process.info['cmdline'])[:200]}")
    return left
