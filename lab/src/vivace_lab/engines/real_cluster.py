"""A real Apache Hadoop cluster on this machine, brought up by `vivace cluster up --dir` for a study
and down by `vivace cluster down` after it (docs/real-cluster.md): a master host and worker hosts,
each a network namespace with a shaped link. Clients reach it with the client configuration it
writes (``DIR/conf``) and its hosts file, through ``HADOOP_CONF_DIR`` and ``HADOOP_CLIENT_OPTS``,
as a user's `hadoop` command would."""

from __future__ import annotations

import os
import shutil
import xml.etree.ElementTree as ElementTree
from pathlib import Path

from vivace_lab import paths, processes
from vivace_lab.engines.base import EngineUnavailable
from vivace_lab.engines.logs import log_tail
from vivace_lab.engines.minicluster import conf_value, default_fs_of
from vivace_lab.engines.real_cluster_shape import RealClusterShape
from vivace_lab.metrics.hosts import HostProbe

UP_TIMEOUT_S = 900.0  # `up` gives up after 5 minutes of waiting for daemons itself; JVM starts beside
DOWN_TIMEOUT_S = 300.0
LINK_TIMEOUT_S = 120.0
FS_TIMEOUT_S = 300.0
NAMESPACES_UNAVAILABLE_EXIT = 3  # `vivace cluster up`'s status when namespaces cannot be made
SPEC_KEY = "cluster: {type: real}"
TOOLS = ("ip", "tc", "unshare", "setsid")


def namespaces_problem() -> str | None:
    """Why network namespaces cannot be made by this process (not root, a tool missing); None when
    they can, as far as can be told without making one (`up` says the rest)."""
    if os.geteuid() != 0:
        return "the lab does not run as root"
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if missing:
        return f"{', '.join(missing)} not found on PATH"
    return None


def unavailable(reason: str) -> EngineUnavailable:
    return EngineUnavailable(f"the spec's {SPEC_KEY} asks for a real cluster in network namespaces, "
                             f"which cannot be made here: {reason}; leave the cluster's type out for "
                             f"the mini-cluster")


class RealCluster:
    """`vivace cluster` on ``home`` (its --dir). ``start`` brings it up (removing what an earlier,
    crashed lab left in that folder first: `up` does that itself), ``stop`` brings it down and
    fails loudly if anything of it is left."""

    def __init__(self, home: Path, shape: RealClusterShape) -> None:
        self.home = home
        self.shape = shape
        self.log_file = home.parent / f"{home.name}-cluster.log"
        self.link: str | None = None
        self._up = False
        self._tez_conf: Path | None = None

    @property
    def conf_dir(self) -> Path:
        return self.home / "conf"

    @property
    def conf_file(self) -> Path:
        """The client configuration's core-site.xml (its folder is what clients are given)."""
        return self.conf_dir / "core-site.xml"

    @property
    def tez_conf_file(self) -> Path:
        """What a client adds to run MapReduce jobs on Tez: written, with Tez staged on HDFS, the
        first time it is asked for."""
        if self._tez_conf is None:
            self._tez_conf = stage_tez(self)
        return self._tez_conf

    pid = None  # the daemons are no child of the lab: the sampler reads them per host instead

    def start(self) -> None:
        problem = namespaces_problem()
        if problem:
            raise unavailable(problem)
        self.home.parent.mkdir(parents=True, exist_ok=True)
        code = self._cluster(["up", "--dir", str(self.home), *self.shape.up_options()], UP_TIMEOUT_S)
        if code == NAMESPACES_UNAVAILABLE_EXIT:
            raise unavailable(log_tail(self.log_file, 3))
        self._up = True  # `down` also after a failed `up`: it removes whatever part was made
        if code != 0:
            raise EngineUnavailable(f"`vivace cluster up` exited with {code}: {log_tail(self.log_file, 10)}")
        self.link = self.shape.links[0]

    def stop(self) -> None:
        if not self._up and not (self.home / "cluster.properties").exists():
            return
        code = self._cluster(["down", "--dir", str(self.home)], DOWN_TIMEOUT_S)
        if code != 0:
            raise EngineUnavailable(f"`vivace cluster down --dir {self.home}` exited with {code}: "
                                    f"{log_tail(self.log_file, 10)}")
        self._up = False
        self.link = None
        self._tez_conf = None

    def set_link(self, rate: str) -> None:
        """Every host's link shaped to ``rate`` (`vivace cluster link`, host by host)."""
        if rate == self.link:
            return
        for host in self.hosts():
            code = self._cluster(["link", "--dir", str(self.home), "--host", host, "--to", rate], LINK_TIMEOUT_S)
            if code != 0:
                raise EngineUnavailable(f"`vivace cluster link --host {host} --to {rate}` exited with {code}: "
                                        f"{log_tail(self.log_file, 5)}")
        self.link = rate

    def hosts(self) -> list[str]:
        """The cluster's hosts (their namespaces' names), master first, from its state file."""
        state = _properties(self.home / "cluster.properties")
        return [h for h in state.get("hosts", "").split(",") if h]

    def probe(self) -> HostProbe:
        return HostProbe(self.hosts())

    def default_fs(self) -> str:
        return default_fs_of(self.conf_file)

    def client_options(self) -> list[str]:
        return []  # the configuration comes from HADOOP_CONF_DIR

    def client_env(self, env: dict[str, str]) -> dict[str, str]:
        """``env`` as a client of this cluster has it: its configuration folder, its hosts file."""
        hosts = f"-Djdk.net.hosts.file={self.conf_dir / 'hosts'}"
        opts = " ".join(o for o in (env.get("HADOOP_CLIENT_OPTS"), hosts) if o)
        return {**env, "HADOOP_CONF_DIR": str(self.conf_dir), "HADOOP_CLIENT_OPTS": opts}

    def fs(self, *args: str) -> None:
        """`vivace fs ARGS` as a client of the cluster; EngineUnavailable when it fails."""
        code = self._launch(["fs", *args], FS_TIMEOUT_S, self.client_env(dict(os.environ)))
        if code != 0:
            raise EngineUnavailable(f"`vivace fs {' '.join(args[:2])} ...` exited with {code}: "
                                    f"{log_tail(self.log_file, 5)}")

    def _cluster(self, args: list[str], timeout_s: float) -> int:
        return self._launch(["cluster", *args], timeout_s, None)

    def _launch(self, args: list[str], timeout_s: float, env: dict[str, str] | None) -> int:
        ended = processes.run_logged([str(paths.launcher()), *args], self.log_file, timeout_s, env)
        if ended is None:
            raise EngineUnavailable(f"`vivace {' '.join(args[:2])}` did not end within {timeout_s:.0f} s: "
                                    f"{log_tail(self.log_file)}")
        return ended[0]


def _properties(path: Path) -> dict[str, str]:
    """A Java properties file's simple ``key=value`` lines (what `vivace cluster` writes)."""
    values: dict[str, str] = {}
    try:
        lines = path.read_text().splitlines()
    except OSError as e:
        raise EngineUnavailable(f"cannot read the cluster's state {path}: {e.strerror or e}") from None
    for line in lines:
        if line.startswith(("#", "!")) or "=" not in line:
            continue
        key, _, value = line.partition("=")
        values[key.strip()] = value.strip().replace("\\:", ":")
    return values


# Tez's own jars (the driver's build lists them) and the libraries of theirs a Hadoop installation
# lacks (Tez's dependency tree against share/hadoop: its "minimal" tarball's lib/), by file name.
TEZ_JARS_LIST = "driver/target/classes/io/vivace/driver/tez-classpath.txt"
TEZ_LIBRARIES = ("async-http-client-", "async-http-client-netty-utils-", "reactive-streams-",
                 "netty-reactive-streams-", "protobuf-java-", "RoaringBitmap-", "jackson-core-asl-",
                 "jackson-mapper-asl-", "jackson-jaxrs-1", "jackson-xc-")
TEZ_HISTORY_DIR = "/tez/history"


def stage_tez(cluster: RealCluster) -> Path:
    """Tez installed on the cluster as its install guide says: its jars and their libraries on HDFS
    (``/apps/tez-VERSION``, world-readable), named by ``tez.lib.uris``, Hadoop's own from the
    cluster's installation (``tez.use.cluster.hadoop-libs``: YARN's class path, and MapReduce's,
    ``mapreduce.application.classpath``, which the MapReduce jobs' classes need); returns the client
    configuration that runs MapReduce jobs on it."""
    home = paths.vivace_home()
    try:
        tez = [Path(p) for p in (home / TEZ_JARS_LIST).read_text().strip().split(":") if p]
        dependencies = [Path(p) for p in (home / "driver/target/classpath.txt").read_text().strip().split(":") if p]
    except OSError as e:
        raise EngineUnavailable(f"cannot read the list of Tez's jars (is the driver built?): {e}") from None
    libraries = [jar for jar in dependencies if jar.name.startswith(TEZ_LIBRARIES) and jar not in tez]
    version = next((jar.name[len("tez-api-"):-len(".jar")] for jar in tez if jar.name.startswith("tez-api-")), None)
    if version is None:
        raise EngineUnavailable(f"{home / TEZ_JARS_LIST} names no tez-api jar")
    lib = f"/apps/tez-{version}"
    cluster.fs("-mkdir", "-p", lib, TEZ_HISTORY_DIR)
    cluster.fs("-put", "-f", *map(str, tez + libraries), lib)
    cluster.fs("-chmod", "-R", "755", "/apps")
    cluster.fs("-chmod", "777", TEZ_HISTORY_DIR)
    default_fs = cluster.default_fs()
    conf = cluster.home.parent / "realcluster-clients" / "tez-site.xml"
    conf.parent.mkdir(parents=True, exist_ok=True)
    _write_conf(conf, {"mapreduce.framework.name": "yarn-tez", "tez.lib.uris": f"{default_fs}{lib}",
                       "tez.use.cluster.hadoop-libs": "true",
                       "tez.cluster.additional.classpath.prefix":
                           conf_value(cluster.conf_dir / "mapred-site.xml", "mapreduce.application.classpath")
                           .replace(",", ":"),
                       "tez.simple.history.logging.dir": f"{default_fs}{TEZ_HISTORY_DIR}"})
    return conf


def _write_conf(path: Path, values: dict[str, str]) -> None:
    root = ElementTree.Element("configuration")
    for name, value in values.items():
        prop = ElementTree.SubElement(root, "property")
        ElementTree.SubElement(prop, "name").text = name
        ElementTree.SubElement(prop, "value").text = value
    ElementTree.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)
