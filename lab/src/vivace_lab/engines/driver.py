"""Engines that run workloads through the Java bench driver (`vivace driver`), one JVM per run.

The driver writes the run record (docs/run-record.md); the sampler watches the driver's process tree
(and whatever long-lived processes the engine adds, such as the YARN mini-cluster's containers).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from vivace_lab import paths, processes
from vivace_lab.engines.base import Engine, EngineUnavailable, RunSettings
from vivace_lab.engines.logs import log_tail
from vivace_lab.metrics.hosts import HostProbe
from vivace_lab.metrics.sampler import Sampler
from vivace_lab.plan.planned import PlannedRun
from vivace_lab.record import FAILED, SUCCEEDED, RunResult
from vivace_lab.workloads.catalogue import WORKLOADS

USAGE_ERROR_EXIT = 2
LOG_TAIL_LINES = 15
PROGRESS_POLL_S = 0.5
DRIVER_PREFIX = "vivace driver: "
LUSTRE_ROOT_KEY = "fs.lustre.root"
LUSTRE_DATA_ROOT = "lustre:///data"
LUSTRE_RUNS_ROOT = "lustre:///runs"


class DriverEngine(Engine):
    """An engine chosen by configuration only: the framework name, its options and the file system.
    Its driver is this checkout's unless ``launcher`` names another checkout's `vivace` (a baseline
    revision built elsewhere, `vivace lab bench --baseline`)."""

    launcher: Path | None = None

    def launcher_path(self) -> Path:
        return self.launcher or paths.launcher()

    def driver_options(self) -> list[str]:
        """Generic options (-D, -conf) that select this engine."""
        raise NotImplementedError

    def data_root(self, settings: RunSettings) -> str:
        return (settings.lab_home / "data").resolve().as_uri()

    def work_root(self, run_dir: Path) -> str:
        return (run_dir / "output").resolve().as_uri()

    def file_system_options(self, run_dir: Path, settings: RunSettings) -> tuple[list[str], str, str]:
        """Generic options, data root and work root: the engine's own, or ``lustre://`` under the
        study's lustre_root (the spec lets only the engines that run in the driver's JVM have one)."""
        if settings.lustre_root is None:
            return [], self.data_root(settings), self.work_root(run_dir)
        return (["-D", f"{LUSTRE_ROOT_KEY}={settings.lustre_root}"], LUSTRE_DATA_ROOT,
                f"{LUSTRE_RUNS_ROOT}/{run_dir.name}")

    def prepare_options(self, planned: PlannedRun, run_dir: Path, settings: RunSettings) -> list[str]:
        """Driver options for the input, found or made before the run (not timed, not sampled)."""
        return []

    def extra_sampled_pids(self) -> list[int]:
        """Processes outside the driver's tree that do this engine's work."""
        return []

    def sampled_hosts(self) -> HostProbe | None:
        """The hosts whose traffic each sample reads one by one (a real cluster's); None: none."""
        return None

    def process_env(self, settings: RunSettings) -> dict[str, str]:
        """The environment of the driver's JVM."""
        return driver_env(settings)

    def run(self, planned: PlannedRun, run_dir: Path, settings: RunSettings) -> RunResult:
        run_dir.mkdir(parents=True, exist_ok=True)
        if settings.lustre_root is not None:
            prepare_lustre_root(settings.lustre_root)
            # what an interrupted attempt left
            shutil.rmtree(settings.lustre_root / "runs" / run_dir.name, ignore_errors=True)
        record_path = run_dir / "record.json"
        log_path = run_dir / "driver.log"
        command = [*self._command(planned, run_dir, record_path, settings),
                   *self.prepare_options(planned, run_dir, settings)]
        started_ms = _now_ms()
        finished = run_process(command, log_path, run_dir, self.process_env(settings), self.extra_sampled_pids(),
                               settings.sample_interval_s, on_progress=settings.on_progress,
                               hosts=self.sampled_hosts())
        finished_ms = _now_ms()
        result = self._result(planned, settings, record_path, log_path, finished.exit_code, started_ms, finished_ms)
        result.samples = finished.samples
        result.host_samples = finished.host_samples
        if result.record is not None:
            result.record["process"] = finished.figures()
        return result

    def _command(self, planned: PlannedRun, run_dir: Path, record: Path, settings: RunSettings) -> list[str]:
        fs_options, data_root, work_root = self.file_system_options(run_dir, settings)
        return driver_command([*self.driver_options(), *fs_options, *_defines(planned.overrides)], planned,
                              record, data_root, work_root, launcher=self.launcher_path())

    def _result(self, planned: PlannedRun, settings: RunSettings, record_path: Path, log_path: Path,
                exit_code: int, started_ms: int, finished_ms: int) -> RunResult:
        result = base_result(planned, self.name, settings, started_ms, finished_ms)
        record = read_record(record_path)
        if record is None:
            reason = ("the driver rejected its arguments" if exit_code == USAGE_ERROR_EXIT
                      else f"the driver exited with code {exit_code} without a run record")
            result.failure = f"{reason}: {log_tail(log_path, LOG_TAIL_LINES)}"
            return result
        return fill_from_record(result, record)


def prepare_lustre_root(root: Path) -> None:
    """Creates the lustre_root directory when missing; EngineUnavailable says why it cannot be."""
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise EngineUnavailable(f"lustre_root {root} cannot be created: {e.strerror or e}") from None
    if not os.access(root, os.W_OK | os.X_OK):
        raise EngineUnavailable(f"lustre_root {root} is not a directory this user can write to")


def driver_env(settings: RunSettings) -> dict[str, str]:
    return dict(os.environ, VIVACE_HEAPSIZE=settings.heap)


def driver_command(generic_options: list[str], planned: PlannedRun, record: Path, data_root: str,
                   work_root: str, *extra: str, launcher: Path | None = None) -> list[str]:
    """`vivace driver` (this checkout's, or ``launcher``) for one planned run; ``extra``: driver
    options such as --phases."""
    command = [str(launcher or paths.launcher()), "driver", *generic_options,
               "--workload", planned.workload, "--record", str(record),
               "--data-root", data_root, "--work-root", work_root]
    for key, value in planned.params.items():
        command += ["--param", f"{key}={value}"]
    return [*command, *extra]


def _defines(overrides: dict[str, str]) -> list[str]:
    return [option for key, value in overrides.items() for option in ("-D", f"{key}={value}")]


@dataclass(frozen=True)
class ProcessRun:
    """How a child process ended: its exit code, the samples of its tree, its wall time, and what
    the kernel accounted to it (and the children it waited for): peak resident set, CPU seconds."""

    exit_code: int
    samples: list
    wall_s: float
    peak_rss_mb: float
    cpu_s: float
    host_samples: list = field(default_factory=list)

    def figures(self) -> dict:
        """What a run record keeps of the process (``record["process"]``)."""
        return {"wall_s": round(self.wall_s, 3), "peak_rss_mb": round(self.peak_rss_mb, 1),
                "cpu_s": round(self.cpu_s, 3)}


def run_sampled(command: list[str], log_path: Path, cwd: Path, env: dict[str, str],
                extra_pids: list[int], interval_s: float | None,
                on_progress: Callable[[str], None] | None = None) -> tuple[int, list]:
    """Runs ``command`` to its end, output to ``log_path``; samples its process tree (and
    ``extra_pids``) every ``interval_s`` unless that is None; hands each new driver progress line
    of the log to ``on_progress``. Returns the exit code and samples."""
    finished = run_process(command, log_path, cwd, env, extra_pids, interval_s, on_progress)
    return finished.exit_code, finished.samples


def run_process(command: list[str], log_path: Path, cwd: Path, env: dict[str, str],
                extra_pids: list[int], interval_s: float | None,
                on_progress: Callable[[str], None] | None = None, hosts: HostProbe | None = None) -> ProcessRun:
    """run_sampled, with the process's wall time and resource usage, and each of ``hosts``'s
    traffic when given."""
    with open(log_path, "ab") as log:
        log.write((" ".join(command) + "\n").encode())
        log.flush()
        started = time.monotonic()
        process = processes.start(command, stdout=log, stderr=subprocess.STDOUT,
                                  stdin=subprocess.DEVNULL, env=env, cwd=cwd)
        sampler = Sampler([process.pid, *extra_pids], interval_s, hosts) if interval_s else None
        if sampler:
            sampler.start()
        try:
            _wait_unreaped(process.pid, log_path, on_progress)
            wall_s = time.monotonic() - started
            samples = sampler.stop() if sampler else []
            _, status, usage = os.wait4(process.pid, 0)
            process.returncode = os.waitstatus_to_exitcode(status)
            return ProcessRun(process.returncode, samples, wall_s, usage.ru_maxrss / 1024.0,
                              usage.ru_utime + usage.ru_stime, sampler.host_samples if sampler else [])
        except BaseException:
            processes.terminate(process)
            if sampler:
                sampler.stop()
            raise
        finally:
            processes.forget(process)


def _wait_unreaped(pid: int, log_path: Path, on_progress) -> None:
    """Waits for the process without reaping it, so the sampler still sees its last interval;
    meanwhile hands each new progress line of its log to ``on_progress``."""
    if on_progress is None:
        os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)
        return
    with open(log_path, "rb") as log:
        offset = log.seek(0, os.SEEK_END)  # progress of this command only, not of earlier ones
    while os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT | os.WNOHANG) is None:
        time.sleep(PROGRESS_POLL_S)
        offset, line = _last_progress_line(log_path, offset)
        if line:
            on_progress(line)


def _last_progress_line(log_path: Path, offset: int) -> tuple[int, str | None]:
    """The offset after the log's last complete line, and the last driver progress line from
    ``offset`` on (the driver prefixes them with 'vivace driver: ')."""
    try:
        with open(log_path, "rb") as log:
            log.seek(offset)
            chunk = log.read()
    except OSError:
        return offset, None
    end = chunk.rfind(b"\n") + 1
    last = None
    for raw in chunk[:end].splitlines():
        text = raw.decode(errors="replace")
        if text.startswith(DRIVER_PREFIX):
            last = text[len(DRIVER_PREFIX):].strip()
    return offset + end, last


def base_result(planned: PlannedRun, engine: str, settings: RunSettings, started_ms: int,
                finished_ms: int) -> RunResult:
    """A failed result of ``planned`` until a run record says otherwise."""
    return RunResult(
        workload=planned.workload, engine=engine, cluster=settings.cluster,
        params=dict(planned.params), overrides=dict(planned.overrides), status=FAILED,
        started_ms=started_ms, finished_ms=finished_ms, repeat=planned.repeat,
        input_bytes=WORKLOADS[planned.workload].input_bytes(planned.params))


def fill_from_record(result: RunResult, record: dict) -> RunResult:
    """The outcome, times, input size, validation and output checksum a run record gives."""
    result.record = record
    result.started_ms = record.get("started_ms") or result.started_ms
    result.finished_ms = record.get("finished_ms") or result.finished_ms
    result.duration_s = (result.finished_ms - result.started_ms) / 1000.0
    data = record.get("data") or {}
    if data.get("actual_bytes") is not None:
        result.input_bytes = data["actual_bytes"]
    validation = record.get("validation") or {}
    result.validation_status = validation.get("status")
    result.validation_detail = validation.get("detail")
    result.output_checksum = validation.get("output_checksum")
    failure = record.get("failure")
    if record.get("status") == "SUCCEEDED" and result.validation_status == "PASSED" and not failure:
        result.status = SUCCEEDED
    elif failure:
        result.failure = f"{failure.get('phase', 'run')}: {failure.get('message', '')}"
    else:
        result.failure = f"validation {result.validation_status}: {result.validation_detail}"
    return result


def read_record(path: Path) -> dict | None:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None



def _now_ms() -> int:
    return int(time.time() * 1000)
