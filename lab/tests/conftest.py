"""Fixtures: ``store_url`` runs each store test against a real SQLite file and a real PostgreSQL
server (started for the session by postgres_server.py; see there for how it is found or
installed). Without PostgreSQL the PostgreSQL cases fail, saying why, unless
VIVACE_LAB_SKIP_POSTGRES=1 (then they are skipped, saying why)."""

from __future__ import annotations

import os
import sys
import uuid
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from postgres_server import SKIP_ENV, PostgresServer, PostgresUnavailable  # noqa: E402

from vivace_lab import paths  # noqa: E402
from vivace_lab.plan.hadoop_keys import HadoopKeys, classpath_jars  # noqa: E402
from vivace_lab.store import Store  # noqa: E402

_postgres_notes: list[str] = []


def pytest_collection_modifyitems(items):
    """A test that reads Hadoop's keys from the real jars needs the Java side built: integration."""
    for item in items:
        if "hadoop_keys" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.integration)


def pytest_terminal_summary(terminalreporter):
    for note in _postgres_notes:
        terminalreporter.write_line(f"postgres: {note}")


@pytest.fixture(scope="session")
def postgres_server():
    """The session's PostgreSQL server, or the PostgresUnavailable that says why there is none."""
    try:
        server = PostgresServer.obtain()
    except PostgresUnavailable as unavailable:
        _postgres_notes.append(f"unavailable: {unavailable}")
        yield unavailable
        return
    _postgres_notes.append(server.how)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def store_url(request, tmp_path):
    """URL of an empty results database: an SQLite file path (in a folder not made yet), or a
    fresh schema on the PostgreSQL server (dropped afterwards)."""
    if request.param == "sqlite":
        yield str(tmp_path / "results" / "lab.db")
        return
    server = request.getfixturevalue("postgres_server")
    if isinstance(server, PostgresUnavailable):
        if os.environ.get(SKIP_ENV) == "1":
            pytest.skip(f"PostgreSQL unavailable ({SKIP_ENV}=1): {server}")
        pytest.fail(f"PostgreSQL unavailable: {server}\n(set {SKIP_ENV}=1 to skip the PostgreSQL "
                    "cases instead)", pytrace=False)
    schema = "test_" + uuid.uuid4().hex[:16]
    with _admin(server.url) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield schema_url(server.url, schema)
    finally:
        with _admin(server.url) as conn:
            conn.execute("SET lock_timeout = '20s'")
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


@pytest.fixture
def store(store_url):
    store = Store(store_url)
    try:
        yield store
    finally:
        store.close()


def schema_url(url: str, schema: str) -> str:
    """The URL with ``search_path`` set to ``schema`` for every connection."""
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    parsed = parsed.update_query_dict({"options": f"-csearch_path={schema}"})
    return parsed.render_as_string(hide_password=False)


def _admin(url: str):
    import psycopg
    from sqlalchemy.engine import make_url

    parsed = make_url(url).set(drivername="postgresql")
    return psycopg.connect(parsed.render_as_string(hide_password=False), autocommit=True)


@pytest.fixture(scope="session")
def yarn_engine(tmp_path_factory):
    """One open hadoop-yarn engine on a YARN + HDFS mini-cluster of the shape `vivace lab swim`
    gives it, shared by every minicluster test of the session: on 2 cores a cluster takes ~30 s
    to start and ~20 s to stop. Stopping the cluster at the end must stop its process."""
    import psutil

    from vivace_lab.engines import create_engine
    from vivace_lab.engines.shared_cluster import SharedCluster
    from vivace_lab.swim_study import SWIM_CLUSTER

    home = tmp_path_factory.mktemp("yarn-lab")
    cluster = SharedCluster(home / "minicluster", SWIM_CLUSTER)
    engine = create_engine("hadoop-yarn", home, cluster)
    engine.open()
    cluster_pid = cluster.pid
    try:
        yield engine
    finally:
        engine.close()
        cluster.stop()
    assert not psutil.pid_exists(cluster_pid) or psutil.Process(cluster_pid).status() == psutil.STATUS_ZOMBIE, \
        "stopping the mini-cluster stops its process"


@pytest.fixture(scope="session")
def hadoop_keys() -> HadoopKeys:
    """Keys and defaults read from the real Hadoop jars the runs use (builds the Java side if needed)."""
    return HadoopKeys.from_jars(classpath_jars(paths.vivace_home(), paths.launcher()))
