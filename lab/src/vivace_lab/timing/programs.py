"""The timing mode's own measurements, which no driver workload makes: whole programs of the
workloads jar, run by an engine's launcher with the engine's options (`vivace jar`), timed by wall
clock from process start to exit, JVM start included.

- ``cold-start``: one empty job in a fresh `vivace jar` process;
- ``latency``: LatencyBench inside one warm JVM, the median submit-to-done time of empty jobs and
  the tasks/s of a sleep job whose tasks do not sleep (results.latency of the stored record).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path

from vivace_lab.engines.base import RunSettings
from vivace_lab.engines.cluster_engine import ClusterEngine
from vivace_lab.engines.driver import DriverEngine, driver_env, run_process
from vivace_lab.engines.logs import log_tail
from vivace_lab.engines.session import driver_classpath
from vivace_lab.plan.planned import PlannedRun
from vivace_lab.record import FAILED, SUCCEEDED, RunResult

WORKLOADS_JAR = Path("workloads", "target", "vivace-workloads.jar")  # in a checkout
LATENCY_BENCH = "io.vivace.workloads.bench.LatencyBench"
EMPTY_JOB = "io.vivace.workloads.bench.EmptyJob"
# As the driver does for its jobs (driver/ClientPolling): Hadoop's defaults (1 s, 5 s) would add up
# to a second to every job on Apache's runners and measure the client, not the runner.
CLIENT_POLLING = ["-D", "mapreduce.client.progressmonitor.pollinterval=20",
                  "-D", "mapreduce.client.completion.pollinterval=5"]
LATENCY_REPORT = "latency.json"


@dataclass(frozen=True)
class Program:
    name: str
    description: str
    main_class: str
    report: str | None = None  # JSON the program writes into its run folder: results.<name>

    def arguments(self, params: dict[str, str], run_dir: Path) -> list[str]:
        if self.name == "latency":
            return ["-warmup", params["warmup"], "-runs", params["runs"], "-m", params["maps"],
                    "-json", str(run_dir / LATENCY_REPORT)]
        return []


PROGRAMS: dict[str, Program] = {p.name: p for p in (
    Program("latency", "empty-job latency and tasks/s (-mt 0) inside one warm JVM", LATENCY_BENCH, LATENCY_REPORT),
    Program("cold-start", "a fresh `vivace jar` process running one empty job, JVM start included", EMPTY_JOB),
)}


def warm_up_command(engine: DriverEngine) -> list[str]:
    """One empty job through the engine's launcher: a launcher's first job after a build makes its
    class data archive, which no timed run should pay for."""
    return program_command(engine, PROGRAMS["cold-start"], {}, Path("."), [])


def program_command(engine: DriverEngine, program: Program, params: dict[str, str], run_dir: Path,
                    overrides: list[str]) -> list[str]:
    launcher = engine.launcher_path()
    # generic options right after the class, before the program's own arguments
    return [str(launcher), "jar", str(launcher.parent / WORKLOADS_JAR), program.main_class,
            *engine.driver_options(), *CLIENT_POLLING, *overrides, *program.arguments(params, run_dir)]


def program_env(engine: DriverEngine, settings: RunSettings) -> dict[str, str]:
    """The driver's environment; on the mini-cluster with the driver's class path, which its
    containers take from the client (MapReduce's ApplicationMaster is not on `vivace jar`'s)."""
    env = driver_env(settings)
    if isinstance(engine, ClusterEngine):
        env["HADOOP_CLASSPATH"] = ":".join(p for p in (env.get("HADOOP_CLASSPATH"), driver_classpath()) if p)
    return env


def run_program(engine: DriverEngine, program: Program, planned: PlannedRun, run_dir: Path,
                settings: RunSettings) -> RunResult:
    run_dir.mkdir(parents=True, exist_ok=True)
    overrides = [o for key, value in planned.overrides.items() for o in ("-D", f"{key}={value}")]
    command = program_command(engine, program, planned.params, run_dir, overrides)
    log_path = run_dir / "program.log"
    started_ms = int(time.time() * 1000)
    finished = run_process(command, log_path, run_dir, program_env(engine, settings),
                           engine.extra_sampled_pids(), settings.sample_interval_s)
    result = RunResult(workload=planned.workload, engine=engine.name, cluster=settings.cluster,
                       params=dict(planned.params), overrides=dict(planned.overrides), status=FAILED,
                       started_ms=started_ms, finished_ms=int(time.time() * 1000), duration_s=finished.wall_s,
                       repeat=planned.repeat, samples=finished.samples, validation_status="SKIPPED",
                       validation_detail="a timing program: no output to check")
    record = {"program": {"class": program.main_class, "command": command}, "process": finished.figures(),
              "results": {}}
    result.record = record
    if finished.exit_code != 0:
        result.failure = f"run: exit {finished.exit_code}: {log_tail(log_path)}"
        return result
    if program.report is not None:
        try:
            record["results"][program.name] = json.loads((run_dir / program.report).read_text())
        except (OSError, ValueError) as e:
            result.failure = f"run: no report {program.report}: {e} ({log_tail(log_path)})"
            return result
    result.status = SUCCEEDED
    return result
