"""A study on a real cluster, without one: the spec's ``cluster: {type: real}`` checked and planned
(one queue per link rate), each host's traffic read from /proc's text, a job's bytes and network
floor from per-host samples, the per-host samples stored and read back, and the spec key named
where namespaces cannot be made."""

from __future__ import annotations

import os

import pytest

from vivace_lab.analysis.network_floor import job_network, network_floor_s, per_host, run_network
from vivace_lab.engines import real_cluster
from vivace_lab.engines.base import EngineUnavailable
from vivace_lab.engines.real_cluster import RealCluster
from vivace_lab.engines.real_cluster_shape import RealClusterShape, link_bits_per_s
from vivace_lab.metrics.hosts import HostCounters, HostProbe, HostSample, disk_delta, host_sample, parse_net_dev, \
    parse_proc_io
from vivace_lab.plan.hadoop_keys import HadoopKeys
from vivace_lab.plan.queue import plan_queue
from vivace_lab.plan.spec import parse_spec
from vivace_lab.plan.yaml_source import SpecError
from vivace_lab.record import SUCCEEDED, RunResult

NO_KEYS = HadoopKeys({})  # these specs set no configuration key

REAL = """name: net
repeats: 2
engines: [hadoop-yarn, vivace-yarn, vivace]
cluster:
  type: real
  hosts: 4
  link: [1gbit, 10gbit]
  cores: 2
  memory_mb: 2048
workloads:
  - terasort: {rows: 1000}
"""


def test_a_real_cluster_is_read_from_the_spec_and_its_runs_planned_once_per_link():
    study = parse_spec(REAL, "net.yaml", NO_KEYS)
    shape = study.cluster
    assert shape.real
    assert (shape.hosts, shape.links, shape.cores, shape.memory_mb) == (4, ("1gbit", "10gbit"), 2, 2048)
    assert shape.up_options() == ("--hosts", "4", "--link", "1gbit", "--cores", "2", "--memory", "2048")
    assert shape.name("box") == "box-real-4x2048m2c-1gbit"
    assert shape.name("box", "10gbit") == "box-real-4x2048m2c-10gbit"
    assert shape.describe({"cores": 2}, "10gbit")["real_cluster"] == {
        "hosts": 4, "link": "10gbit", "cores": 2, "memory_mb": 2048}
    queue = plan_queue(study)
    # 2 repeats x 3 engines on 1gbit; then the cluster's 2 engines again on 10gbit (vivace runs once)
    assert [(p.engine, p.link) for p in queue] == [
        ("hadoop-yarn", "1gbit"), ("vivace-yarn", "1gbit"), ("vivace", None)] * 2 + \
        [("hadoop-yarn", "10gbit"), ("vivace-yarn", "10gbit")] * 2
    assert [p.seq for p in queue] == list(range(10))
    assert len({p.key for p in queue}) == 10, "every run its own identity: the link is part of it"
    assert '"link":"10gbit"' in queue[-1].key and "link" not in queue[2].key


def test_a_real_cluster_has_defaults_and_the_mini_cluster_stays_the_default():
    study = parse_spec("name: x\nengines: [hadoop-yarn]\nworkloads: [sleep]\ncluster: {type: real}\n", "d.yaml", NO_KEYS)
    assert (study.cluster.hosts, study.cluster.links, study.cluster.cores, study.cluster.memory_mb) == \
        (2, ("none",), 4, 3072)
    assert [p.link for p in plan_queue(study)] == ["none"] * 3
    mini = parse_spec("name: x\nengines: [hadoop-yarn]\nworkloads: [sleep]\n", "m.yaml", NO_KEYS)
    assert not mini.cluster.real
    assert [p.link for p in plan_queue(mini)] == [None] * 3
    assert "link" not in plan_queue(mini)[0].key, "keys of the studies stored before links stay theirs"


@pytest.mark.parametrize("cluster, line, message", [
    ("{type: real, hosts: 0}", 4, "cluster hosts must be a whole number of at least 1, not 0"),
    ("{type: real, link: 1gb}", 4, "cluster link: '1gb' is not a link rate"),
    ("{type: real, link: [1gbit, 1GBIT]}", 4, "cluster link lists a rate twice"),
    ("{type: real, nodemanagers: 2}", 4, "a real cluster has no setting 'nodemanagers' (a setting of the "
                                         "mini-cluster) (its settings: type, hosts, link, cores, memory_mb)"),
    ("{hosts: 2}", 4, "the mini-cluster has no setting 'hosts' (a setting of type: real)"),
    ("{type: cloud}", 4, "cluster type must be one of mini, real, not 'cloud'"),
    ("{type: real, memory_mb: 512}", 4, "cluster memory_mb must be a whole number of at least 1024"),
])
def test_a_bad_real_cluster_is_rejected_naming_the_line(cluster, line, message):
    with pytest.raises(SpecError) as error:
        parse_spec(f"name: x\nengines: [hadoop-yarn]\nworkloads: [sleep]\ncluster: {cluster}\n", "bad.yaml", NO_KEYS)
    assert str(error.value).startswith(f"bad.yaml:{line}: "), str(error.value)
    assert message in str(error.value)


def test_link_rates_read_as_tc_reads_them():
    assert link_bits_per_s("1gbit") == 1e9
    assert link_bits_per_s("10Gbit") == 1e10
    assert link_bits_per_s("100mbit") == 1e8
    assert link_bits_per_s("2.5gbit") == 2.5e9
    assert link_bits_per_s("none") is None
    for bad in ("1gb", "gbit", "0gbit", "fast"):
        with pytest.raises(ValueError):
            link_bits_per_s(bad)


NET_DEV = """Inter-|   Receive                                                |  Transmit
 face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed
    lo:  987654     100    0    0    0     0          0         0   987654     100    0    0    0     0       0          0
  eth0: 1500000    1200    0    0    0     0          0         0  2500000    1800    0    0    0     0       0          0
"""

PROC_IO = """rchar: 123456789
wchar: 98765
syscr: 10
syscw: 20
read_bytes: 40960
write_bytes: 8192
cancelled_write_bytes: 4096
"""


def test_a_hosts_net_dev_and_proc_io_are_parsed_without_loopback():
    assert parse_net_dev(NET_DEV) == (1_500_000, 2_500_000)
    assert parse_proc_io(PROC_IO) == (40960, 8192), "what reached storage, not rchar/wchar"


def test_disk_traffic_counts_growth_new_processes_whole_and_nothing_of_ended_ones():
    before = {10: (1000, 2000), 11: (500, 500), 12: (7000, 7000)}
    after = {10: (1500, 2600), 13: (300, 400), 12: (100, 50)}  # 11 ended; 13 new; 12 a reused pid
    assert disk_delta(before, after) == (500 + 300 + 100, 600 + 400 + 50)
    sample = host_sample("h1", HostCounters(100, 200, before), HostCounters(150, 1200, after), 5000, 1.0)
    assert sample == HostSample("h1", 5000, 1.0, 50, 1000, 900, 1050)


def test_a_host_without_a_namespace_reads_as_nothing(tmp_path, monkeypatch):
    from vivace_lab.metrics import hosts
    monkeypatch.setattr(hosts, "NETNS_DIR", tmp_path)
    monkeypatch.setattr(hosts, "_net_dev_by_exec", lambda host: "")
    counters = HostProbe(["vv-none-worker1"]).read()["vv-none-worker1"]
    assert (counters.net_rx_bytes, counters.net_tx_bytes, counters.disk_io) == (0, 0, {})


def samples(*rows):
    return [HostSample(host, t, 1.0, rx, tx, 0, 0) for host, t, rx, tx in rows]


def test_a_jobs_bytes_and_network_floor_come_from_the_samples_inside_it():
    data = samples(("w1", 1000, 9, 9),  # before the job: its interval ends at its submission
                   ("w1", 2000, 100_000_000, 25_000_000), ("w2", 2000, 25_000_000, 100_000_000),
                   ("w1", 3000, 50_000_000, 0), ("w2", 3000, 0, 50_000_000),
                   ("w1", 4500, 7, 7))  # after: its interval starts at the job's end
    job = {"phase": "run", "job_id": "job_1", "name": "TeraSort", "submit_ms": 1000, "finish_ms": 3500}
    net = job_network(job, data, "1gbit")
    assert net.time_s == 2.5
    assert net.moved_bytes == 175_000_000, "what every host sent"
    assert (net.busiest_host, net.busiest_bytes) == ("w1", 150_000_000)
    assert net.floor_s == pytest.approx(1.2), "150 MB at 1 Gbit/s"
    assert net.one_link_s == pytest.approx(1.4)
    assert job_network(job, data, "10gbit").floor_s == pytest.approx(0.12)
    assert job_network(job, data, "none").floor_s is None
    assert network_floor_s(125_000_000, "1gbit") == pytest.approx(1.0)
    record = {"cluster": {"link": "1gbit"}, "jobs": [{"phase": "prepare", "submit_ms": 0, "finish_ms": 900}, job]}
    assert run_network(record, data) == [net]
    assert run_network(record, []) == []
    assert [(h.host, h.net_rx_bytes, h.net_tx_bytes) for h in per_host(data)] == [
        ("w1", 150_000_016, 25_000_016), ("w2", 25_000_000, 150_000_000)]


def test_host_samples_are_stored_with_the_run_and_read_back(store):
    cluster = store.ensure_cluster("box-real-2x3072m4c-1gbit", {"real_cluster": {"hosts": 2}})
    assert cluster
    stored = [HostSample("vv2-worker1", 1000, 1.0, 10, 20, 30, 40), HostSample("vv2-worker2", 1000, 1.0, 1, 2, 3, 4),
              HostSample("vv2-worker1", 2000, 0.5, 5, 6, 7, 8)]
    result = RunResult(workload="sleep", engine="hadoop-yarn", cluster="box-real-2x3072m4c-1gbit", params={},
                       overrides={}, status=SUCCEEDED, started_ms=0, finished_ms=2000, host_samples=stored)
    run_id = store.record_run(result)
    assert store.host_samples(run_id) == stored
    other = store.record_run(RunResult(workload="sleep", engine="vivace", cluster="box-real-2x3072m4c-1gbit",
                                       params={}, overrides={}, status=SUCCEEDED, started_ms=0, finished_ms=1))
    assert store.host_samples(other) == []
    with pytest.raises(KeyError):
        store.host_samples(run_id + 100)


def test_where_namespaces_cannot_be_made_the_run_fails_naming_the_spec_key(tmp_path, monkeypatch):
    monkeypatch.setattr(real_cluster, "namespaces_problem", lambda: "the lab does not run as root")
    cluster = RealCluster(tmp_path / "realcluster", RealClusterShape())
    with pytest.raises(EngineUnavailable) as error:
        cluster.start()
    assert "cluster: {type: real}" in str(error.value)
    assert "the lab does not run as root" in str(error.value)
    assert not (tmp_path / "realcluster").exists(), "nothing was started"


def test_namespaces_need_root():
    problem = real_cluster.namespaces_problem()
    if os.geteuid() != 0:
        assert problem == "the lab does not run as root"
    else:
        assert problem is None or "not found on PATH" in problem


def test_the_run_page_shows_each_hosts_traffic_and_the_jobs_network_floor(store):
    from fastapi.testclient import TestClient

    from vivace_lab.web import create_app

    store.ensure_cluster("box-real-2x3072m4c-1gbit",
                         {"real_cluster": {"hosts": 2, "link": "1gbit", "cores": 4, "memory_mb": 3072}})
    record = {"status": "SUCCEEDED", "cluster": {"link": "1gbit", "hosts": ["vv3-master", "vv3-worker1"]},
              "jobs": [{"phase": "run", "job_id": "job_7", "name": "TeraSort", "submit_ms": 1000, "finish_ms": 3000}]}
    traffic = [HostSample("vv3-master", 2000, 1.0, 1_000_000, 2_000_000, 0, 4096),
               HostSample("vv3-worker1", 2000, 1.0, 250_000_000, 50_000_000, 3_000_000, 9_000_000),
               HostSample("vv3-worker1", 3000, 1.0, 0, 0, 0, 1_000_000)]
    run_id = store.record_run(RunResult(workload="terasort", engine="hadoop-yarn", cluster="box-real-2x3072m4c-1gbit",
                                        params={}, overrides={}, status=SUCCEEDED, started_ms=1000, finished_ms=3000,
                                        record=record, host_samples=traffic))
    page = TestClient(create_app(store)).get(f"/runs/{run_id}").text
    assert "real cluster: 2 worker hosts of 4 vcores and 3072 MB, links 1gbit" in page
    hosts = page[page.index('id="host-traffic"'):page.index('id="network-floor"')]
    assert "<td>vv3-master</td>" in hosts and "<td>vv3-worker1</td>" in hosts
    assert "238.4 MiB" in hosts, hosts  # worker1's 250,000,000 bytes in
    floor = page[page.index('id="network-floor"'):]
    assert "TeraSort" in floor and "vv3-worker1" in floor
    assert "2.000 s at 1gbit" in floor, floor  # 250 MB at 1 Gbit/s
    assert "49.6 MiB" in floor, "moved: what the hosts sent (2 MB + 50 MB)"
    plain = store.record_run(RunResult(workload="sleep", engine="vivace", cluster="box", params={}, overrides={},
                                       status=SUCCEEDED, started_ms=0, finished_ms=1))
    assert 'id="host-traffic"' not in TestClient(create_app(store)).get(f"/runs/{plain}").text
