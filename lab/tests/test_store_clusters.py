"""Cluster descriptions and their hourly prices."""

from __future__ import annotations

from datetime import datetime

import pytest
from rundata import terasort_result


def test_ensure_creates_once_and_updates_the_description(store):
    desc = {"nodes": 2, "cores_per_node": 8, "memory_gb": 32, "disk": "nvme", "network": "10GbE"}
    first = store.ensure_cluster("lab-2x8", desc, hourly_price=1.20)
    assert store.ensure_cluster("lab-2x8", desc) == first
    [cluster] = store.clusters()
    assert (cluster.id, cluster.name, cluster.description, cluster.hourly_price) == (
        first, "lab-2x8", desc, 1.20)
    assert cluster.nodes == 2
    assert isinstance(cluster.created, datetime)
    assert cluster.created.utcoffset().total_seconds() == 0

    # a new description replaces the old; no price given keeps the price
    store.ensure_cluster("lab-2x8", {**desc, "disk": "sata-ssd"})
    [cluster] = store.clusters()
    assert cluster.description["disk"] == "sata-ssd"
    assert cluster.hourly_price == 1.20


def test_set_price(store):
    store.ensure_cluster("m5.2xlarge-x4", {"nodes": 4, "instance": "m5.2xlarge"})
    assert store.clusters()[0].hourly_price is None
    store.set_cluster_price("m5.2xlarge-x4", 1.536)
    assert store.clusters()[0].hourly_price == 1.536
    store.set_cluster_price("m5.2xlarge-x4", 0)
    assert store.clusters()[0].hourly_price == 0.0


def test_unknown_cluster_and_bad_prices(store):
    with pytest.raises(KeyError, match="no-such-cluster"):
        store.set_cluster_price("no-such-cluster", 1.0)
    store.ensure_cluster("c", {})
    for bad in (-1.0, float("nan")):
        with pytest.raises(ValueError, match="hourly price"):
            store.set_cluster_price("c", bad)
    assert store.clusters()[0].hourly_price is None


def test_recording_a_run_on_an_unknown_cluster_creates_it(store):
    store.record_run(terasort_result(cluster="laptop"))
    [cluster] = store.clusters()
    assert (cluster.name, cluster.description, cluster.hourly_price, cluster.nodes) == (
        "laptop", {}, None, 1)
    # describing it later keeps the run attached
    store.ensure_cluster("laptop", {"nodes": 1, "cores": 8}, 0.0)
    assert store.runs(cluster="laptop")[0].cluster == "laptop"


def test_clusters_are_listed_by_name(store):
    for name in ("zeta", "alpha", "mid"):
        store.ensure_cluster(name, {"nodes": 1})
    assert [c.name for c in store.clusters()] == ["alpha", "mid", "zeta"]
