"""Engines that run workloads through the Java bench driver (`vivace driver`), one JVM per run.

The driver writes the run record (docs/run-record.md); the sampler watches the driver's process tree
(and whatever long-lived processes the engine adds, such as the YARN mini-cluster's containers).
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

from vivace_lab import paths, processes
from vivace_lab.engines.base import Engine, RunSettings
from vivace_lab.engines.logs import log_tail
from vivace_lab.metrics.sampler import Sampler
from vivace_lab.plan.planned import PlannedRun
from vivace_lab.record import FAILED, SUCCEEDED, RunResult
from vivace_lab.workloads.catalogue import WORKLOADS

USAGE_ERROR_EXIT = 2
LOG_TAIL_LINES = 15
PROGRESS_POLL_S = 0.5
DRIVER_PREFIX = "vivace driver: "


class DriverEngine(Engine):
    """An engine chosen by configuration only: the framework name, its options and the file system."""

    def driver_options(self) -> list[str]:
        """Generic options (-D, -conf) that select this engine."""
        raise NotImplementedError

    def data_root(self, settings: RunSettings) -> str:
        return (settings.lab_home / "data").resolve().as_uri()

    def work_root(self, run_dir: Path) -> str:
        return (run_dir / "output").resolve().as_uri()

    def extra_sampled_pids(self) -> list[int]:
        """Processes outside the driver's tree that do this engine's work."""
        return []

    def run(self, planned: PlannedRun, run_dir: Path, settings: RunSettings) -> RunResult:
        run_dir.mkdir(parents=True, exist_ok=True)
        record_path = run_dir / "record.json"
        log_path = run_dir / "driver.log"
        command = self._command(planned, run_dir, record_path, settings)
        env = dict(os.environ, VIVACE_HEAPSIZE=settings.heap)
        started_ms = _now_ms()
        with open(log_path, "wb") as log:
            log.write((" ".join(command) + "\n").encode())
            log.flush()
            process = processes.start(command, stdout=log, stderr=subprocess.STDOUT,
                                      stdin=subprocess.DEVNULL, env=env, cwd=run_dir)
            sampler = Sampler([process.pid, *self.extra_sampled_pids()], settings.sample_interval_s)
            sampler.start()
            try:
                _wait_unreaped(process.pid, log_path, settings.on_progress)
                samples = sampler.stop()
                exit_code = process.wait()
            except BaseException:
                processes.terminate(process)
                sampler.stop()
                raise
            finally:
                processes.forget(process)
        finished_ms = _now_ms()
        result = self._result(planned, settings, record_path, log_path, exit_code, started_ms, finished_ms)
        result.samples = samples
        return result

    def _command(self, planned: PlannedRun, run_dir: Path, record: Path, settings: RunSettings) -> list[str]:
        command = [str(paths.launcher()), "driver", *self.driver_options()]
        for key, value in planned.overrides.items():
            command += ["-D", f"{key}={value}"]
        command += ["--workload", planned.workload, "--record", str(record),
                    "--data-root", self.data_root(settings), "--work-root", self.work_root(run_dir)]
        for key, value in planned.params.items():
            command += ["--param", f"{key}={value}"]
        return command

    def _result(self, planned: PlannedRun, settings: RunSettings, record_path: Path, log_path: Path,
                exit_code: int, started_ms: int, finished_ms: int) -> RunResult:
        result = RunResult(
            workload=planned.workload, engine=self.name, cluster=settings.cluster,
            params=dict(planned.params), overrides=dict(planned.overrides), status=FAILED,
            started_ms=started_ms, finished_ms=finished_ms, repeat=planned.repeat,
            input_bytes=WORKLOADS[planned.workload].input_bytes(planned.params))
        record = _read_record(record_path)
        if record is None:
            reason = ("the driver rejected its arguments" if exit_code == USAGE_ERROR_EXIT
                      else f"the driver exited with code {exit_code} without a run record")
            result.failure = f"{reason}: {log_tail(log_path, LOG_TAIL_LINES)}"
            return result
        result.record = record
        result.started_ms = record.get("started_ms") or started_ms
        result.finished_ms = record.get("finished_ms") or finished_ms
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


def _wait_unreaped(pid: int, log_path: Path, on_progress) -> None:
    """Waits for the driver without reaping it, so the sampler still sees its last interval;
    meanwhile hands each new progress line of its log to ``on_progress``."""
    if on_progress is None:
        os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)
        return
    offset = 0
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


def _read_record(path: Path) -> dict | None:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None



def _now_ms() -> int:
    return int(time.time() * 1000)
