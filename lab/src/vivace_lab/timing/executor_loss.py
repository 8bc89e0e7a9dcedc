"""``executor-loss`` (cluster mode): a terasort on the Vivace session that loses one executor,
killed for real (SIGKILL) once the job client reports half the maps done and the reduce not, so
that finished maps' outputs are still needed. The timing table compares it with the undisturbed
terasort on the same session (``loss_summary``)."""

from __future__ import annotations

import dataclasses
import os
import re
import signal
import statistics
import subprocess
import threading
import time
from pathlib import Path

from vivace_lab.engines.base import RunSettings
from vivace_lab.plan.planned import PlannedRun
from vivace_lab.record import FAILED, RunResult

LOSS = "executor-loss"
EXECUTOR_MAIN = "io.vivace.cluster.executor.ExecutorMain"
# The job client's progress lines (every 100 ms with the driver's polling) and when to kill.
PROGRESS = re.compile(r" map (\d+)% reduce (\d+)%")
KILL_AT_MAP_PERCENT = 50
POLL_S = 0.02


def ps_table() -> list[tuple[int, list[str]]]:
    listed = subprocess.run(["ps", "-ww", "-eo", "pid=,args="], capture_output=True, text=True, check=True)
    rows = []
    for line in listed.stdout.splitlines():
        pid, _, args = line.strip().partition(" ")
        rows.append((int(pid), args.split()))
    return rows


def executor_pids(application: str) -> list[int]:
    """The session's executor JVMs: their command line names the main class and, in the container
    log folder, the application."""
    return [pid for pid, args in ps_table()
            if args and args[0].endswith("/java") and EXECUTOR_MAIN in args and any(application in a for a in args)]


def kill_executor(application: str, loss: dict) -> None:
    pids = executor_pids(application)
    if not pids:
        loss["error"] = f"no executor JVM of {application} found by ps"
        return
    os.kill(pids[0], signal.SIGKILL)
    loss["killed_pid"], loss["executors"] = pids[0], len(pids)


def kill_mid_job(log_file: Path, application: str, loss: dict, ended: threading.Event) -> None:
    """Kills one of the session's executors once the log shows KILL_AT_MAP_PERCENT of the maps done
    and the reduce not."""
    start = time.monotonic()
    while not ended.wait(POLL_S):
        try:
            progress = PROGRESS.findall(log_file.read_text(errors="replace"))
        except OSError:
            continue
        if progress and int(progress[-1][0]) >= KILL_AT_MAP_PERCENT and int(progress[-1][1]) < 100:
            loss["kill_after_s"] = round(time.monotonic() - start, 3)
            loss["progress"] = "map {}% reduce {}%".format(*progress[-1])
            kill_executor(application, loss)
            return


def run_with_executor_loss(engine, planned: PlannedRun, run_dir: Path, settings: RunSettings) -> RunResult:
    """A terasort of ``planned``'s parameters on ``engine`` (vivace-yarn), one of whose executors is
    killed mid-job; failed if none was. The record keeps what was killed when (``executor_loss``)."""
    session = engine.session
    loss: dict = {}
    ended = threading.Event()
    watcher = threading.Thread(target=kill_mid_job, daemon=True,
                               args=(run_dir / "driver.log", session.application_id if session else "", loss, ended))
    watcher.start()
    try:
        result = engine.run(dataclasses.replace(planned, workload="terasort"), run_dir, settings)
    finally:
        ended.set()
        watcher.join(timeout=10)
    result.workload = LOSS
    if result.record is not None:
        result.record["executor_loss"] = loss
    if "killed_pid" not in loss and result.status != FAILED:
        result.status = FAILED
        result.failure = f"run: no executor was killed: {loss.get('error', 'the job ended first')}"
    return result


def _task_seconds(counters: dict) -> float:
    """Time of the successful attempts (JobCounter MILLIS_MAPS + MILLIS_REDUCES)."""
    return (counters.get("MILLIS_MAPS", 0) + counters.get("MILLIS_REDUCES", 0)) / 1000


def _launched(counters: dict) -> int:
    return counters.get("TOTAL_LAUNCHED_MAPS", 0) + counters.get("TOTAL_LAUNCHED_REDUCES", 0)


def job_counters(record: dict) -> dict[str, int]:
    """The run phase's counters of a run record (their internal names, as the driver records them),
    every group in one mapping, summed over the phase's jobs."""
    found: dict[str, int] = {}
    for job in record.get("jobs") or []:
        if job.get("phase") == "run":
            for values in (job.get("counters") or {}).values():
                for name, value in (values or {}).items():
                    found[name] = found.get(name, 0) + int(value)
    return found


def loss_summary(undisturbed: list[dict], lost: list[dict]) -> dict | None:
    """The loss runs against the undisturbed terasort on the session, from their stored records
    (each: ``duration_s``, ``ok``, ``record``); None without loss runs."""
    if not lost:
        return None
    base = [r for r in undisturbed if r["ok"]]
    hit = [r for r in lost if r["ok"]]
    if not base or not hit:
        return {"failed": True}

    def median(runs, figure):
        return statistics.median(figure(r) for r in runs)

    counters = {id(r): job_counters(r["record"] or {}) for r in base + hit}
    base_s, lost_s = median(base, lambda r: r["duration_s"]), median(hit, lambda r: r["duration_s"])
    return {
        "undisturbed_median_s": base_s, "with_loss_median_s": lost_s, "extra_s": lost_s - base_s,
        "kill_after_s": median(hit, lambda r: r["record"]["executor_loss"]["kill_after_s"]),
        "extra_attempts": median(hit, lambda r: _launched(counters[id(r)]))
        - median(base, lambda r: _launched(counters[id(r)])),
        "redone_task_s": median(hit, lambda r: _task_seconds(counters[id(r)]))
        - median(base, lambda r: _task_seconds(counters[id(r)])),
    }


def describe_loss(loss: dict | None, size: str) -> str:
    if loss is None:
        return ""
    if loss.get("failed"):
        return f"{LOSS}: failed, see its runs in the store"
    return (f"{LOSS} ({size} terasort on the session, one executor killed (SIGKILL) at {KILL_AT_MAP_PERCENT}% of"
            f" the maps, after {loss['kill_after_s']:.1f} s):\n  undisturbed {loss['undisturbed_median_s']:.2f} s,"
            f" with the loss {loss['with_loss_median_s']:.2f} s: {loss['extra_s']:+.2f} s;"
            f" {loss['extra_attempts']:.0f} attempts more, successful attempts' time"
            f" {loss['redone_task_s']:+.2f} task-s (the lost work run again)")
