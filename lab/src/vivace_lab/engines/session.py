"""A Vivace session on the study's YARN + HDFS mini-cluster (docs/cluster.md), started by hand
(`vivace session start`) when the vivace-yarn engine opens and stopped when it closes; its start
waits until its warm executors have joined it.

Its size follows the cluster's shape, so that it holds what MapReduce on YARN may hold: an
application master of one container, and executors of ``slots`` containers each (a slot gets a
container's memory), as many as fit beside the master. The session lives as long as the study
(its idle timeout is a week: the lab stops it), keeps the shape's ``session_executors`` warm (one
by default) from its start and between runs, and gives the others back to YARN after the runtime's
default idle time.

On a mini-cluster the session's containers take the class path of the client that starts it, as
MapReduce's containers take the job client's; the session is started with the driver's (through
``HADOOP_CLASSPATH``) so that its executors find the driver's workloads, as hadoop-yarn's tasks do.
On a real cluster it is started with the launcher's own class path, as a user would start it: the
driver's jobs carry their classes in their job jars.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from vivace_lab import paths, processes
from vivace_lab.engines.base import EngineUnavailable
from vivace_lab.engines.cluster_shape import ClusterShape
from vivace_lab.engines.logs import log_tail

SESSION_NAME = "vivace-lab"
SLOTS = 2  # the runtime's default vivace.session.executor.slots
IDLE_TIMEOUT_MS = 7 * 24 * 3600 * 1000
START_TIMEOUT_S = 300.0
EXECUTORS_WAIT_MS = 200_000  # of START_TIMEOUT_S: the warm executors joining a started session
STOP_TIMEOUT_S = 120.0


@dataclass(frozen=True)
class SessionSize:
    """What the session may hold of the cluster."""

    am_memory_mb: int
    executor_memory_mb: int
    slots: int  # attempts an executor runs at once
    executors_min: int
    executors_max: int

    @staticmethod
    def for_shape(shape: ClusterShape) -> SessionSize:
        slots = max(1, min(SLOTS, shape.nm_memory_mb // shape.container_mb))
        executor_mb = slots * shape.container_mb
        per_node = shape.nm_memory_mb // executor_mb
        beside_master = (shape.nm_memory_mb - shape.container_mb) // executor_mb
        most = max(1, (shape.nodemanagers - 1) * per_node + beside_master)
        return SessionSize(am_memory_mb=shape.container_mb, executor_memory_mb=executor_mb, slots=slots,
                           executors_min=min(shape.session_executors, most), executors_max=most)

    @staticmethod
    def fixed(shape: ClusterShape) -> SessionSize:
        """One executor of one container per NodeManager, all kept from start to end: a session that
        neither grows into the cluster nor gives back to it while another engine's runs are timed
        on the same cluster (the timing mode's)."""
        return SessionSize(am_memory_mb=shape.container_mb, executor_memory_mb=shape.container_mb, slots=SLOTS,
                           executors_min=shape.nodemanagers, executors_max=shape.nodemanagers)

    def keys(self) -> dict[str, str]:
        """The session's configuration keys (docs/configuration-keys.md)."""
        return {"vivace.session.am.memory.mb": str(self.am_memory_mb),
                "vivace.session.executor.memory.mb": str(self.executor_memory_mb),
                "vivace.session.executor.slots": str(self.slots),
                "vivace.session.executors.min": str(self.executors_min),
                "vivace.session.executors.max": str(self.executors_max),
                "vivace.session.idle.timeout.ms": str(IDLE_TIMEOUT_MS),
                "vivace.session.start.wait.ms": str(EXECUTORS_WAIT_MS)}


class YarnSession:
    """One Vivace session on the cluster whose client configuration is ``conf_file``; its
    `vivace session` commands log to files under ``home``. ``client_options`` and ``client_env``
    make its commands clients of the cluster (by default: ``-conf conf_file``)."""

    def __init__(self, conf_file: Path, size: SessionSize, home: Path, client_options: list[str] | None = None,
                 client_env: Callable[[dict[str, str]], dict[str, str]] | None = None,
                 with_driver_classpath: bool = True) -> None:
        self.conf_file = conf_file
        self.client_options = ["-conf", str(conf_file)] if client_options is None else client_options
        self.client_env = client_env or (lambda env: env)
        self.with_driver_classpath = with_driver_classpath
        self.size = size
        self.home = home
        self.application_id: str | None = None
        self.started_ms: int | None = None
        self.start_s: float | None = None  # from `vivace session start` to its first job done

    def options(self) -> list[str]:
        """Generic options that send a driver's jobs to this session."""
        return ["-D", "vivace.master=yarn", "-D", f"vivace.session.name={SESSION_NAME}"]

    def start(self, warm_up) -> None:
        """Starts the session, waiting for its warm executors to join, and runs ``warm_up`` (a
        callable running one small job on it), so that an executor has run a task before any timed
        run; EngineUnavailable says why when either fails."""
        self.home.mkdir(parents=True, exist_ok=True)
        started = time.monotonic()
        self.started_ms = int(time.time() * 1000)
        out = self._session("start", SESSION_NAME, log=self.home / "session-start.log", timeout_s=START_TIMEOUT_S,
                            extra_classpath=driver_classpath() if self.with_driver_classpath else None)
        fields = out.split("\t")
        if not fields[0].startswith("application_"):
            raise EngineUnavailable(f"`vivace session start` printed no application id ('{out}'): "
                                    f"{log_tail(self.home / 'session-start.log')}")
        self.application_id = fields[0]
        warm_up()
        self.start_s = time.monotonic() - started

    def stop(self) -> None:
        """Stops the session (killing its YARN application); a failure is noted in its log only:
        the cluster's stop ends the session anyway."""
        if self.application_id is None:
            return
        try:
            self._session("stop", self.application_id, log=self.home / "session-stop.log", timeout_s=STOP_TIMEOUT_S)
        except EngineUnavailable:
            pass
        self.application_id = None

    def job_id_prefix(self) -> str | None:
        """Job ids of this session's jobs start with it: the session numbers them after its
        application ('application_1700000000000_0002' -> 'job_17000000000000002_')."""
        if self.application_id is None:
            return None
        _, timestamp, number = self.application_id.split("_")
        return f"job_{timestamp}{int(number):04d}_"

    def info(self) -> dict:
        """What each run on the session stores of it."""
        return {"session": {"application_id": self.application_id, "name": SESSION_NAME,
                            "started_ms": self.started_ms,
                            "start_s": None if self.start_s is None else round(self.start_s, 3),
                            "am_memory_mb": self.size.am_memory_mb,
                            "executor_memory_mb": self.size.executor_memory_mb,
                            "slots_per_executor": self.size.slots,
                            "executors_min": self.size.executors_min,
                            "executors_max": self.size.executors_max}}

    def _session(self, *args: str, log: Path, timeout_s: float, extra_classpath: str | None = None) -> str:
        defines = [o for key, value in self.size.keys().items() for o in ("-D", f"{key}={value}")]
        command = [str(paths.launcher()), "session", *self.client_options,
                   "-D", f"vivace.session.name={SESSION_NAME}", *defines, *args]
        env = self.client_env(dict(os.environ))
        if extra_classpath:
            env["HADOOP_CLASSPATH"] = ":".join(p for p in (env.get("HADOOP_CLASSPATH"), extra_classpath) if p)
        ended = processes.run_logged(command, log, timeout_s, env, capture_stdout=True)
        if ended is None:
            raise EngineUnavailable(f"`vivace session {args[0]}` did not end within {timeout_s:.0f} s: "
                                    f"{log_tail(log)}")
        code, out = ended
        if code != 0:
            raise EngineUnavailable(f"`vivace session {args[0]}` exited with {code}: {log_tail(log)}")
        return out.decode(errors="replace").strip()


def driver_classpath() -> str:
    """The driver's jar and its dependencies, as `vivace driver` runs them (the build's files)."""
    target = paths.vivace_home() / "driver" / "target"
    listed = target / "classpath.txt"
    try:
        dependencies = listed.read_text().strip()
    except OSError as e:
        raise EngineUnavailable(f"cannot read the driver's class path {listed} (is the project built?): "
                                f"{e.strerror or e}") from None
    return f"{target / 'vivace-driver.jar'}:{dependencies}"
