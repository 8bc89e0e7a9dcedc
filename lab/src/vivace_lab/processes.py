"""Child processes the lab starts (driver JVMs, the mini-cluster), each in its own process group,
so that an interrupted lab takes all of them, and their children, down with it."""

from __future__ import annotations

import os
import signal
import subprocess
import threading

_live: set[subprocess.Popen] = set()
_lock = threading.Lock()


def start(command: list[str], **kwargs) -> subprocess.Popen:
    process = subprocess.Popen(command, start_new_session=True, **kwargs)
    with _lock:
        _live.add(process)
    return process


def forget(process: subprocess.Popen) -> None:
    with _lock:
        _live.discard(process)


def terminate(process: subprocess.Popen, grace_s: float = 10.0) -> None:
    """SIGTERM to the process group, SIGKILL after the grace period; reaps the process."""
    for sig, wait_s in ((signal.SIGTERM, grace_s), (signal.SIGKILL, 10.0)):
        if process.poll() is not None:
            break
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            break
        try:
            process.wait(wait_s)
        except subprocess.TimeoutExpired:
            continue
    _kill_group_leftovers(process.pid)
    forget(process)


def terminate_all() -> None:
    with _lock:
        live = list(_live)
    for process in live:
        terminate(process, grace_s=5.0)


def _kill_group_leftovers(pgid: int) -> None:
    # Children that outlived the leader still carry its group id (a YARN container, say).
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def run_logged(command: list[str], log_path, timeout_s: float, env: dict[str, str] | None = None,
               capture_stdout: bool = False) -> tuple[int, bytes] | None:
    """Runs ``command`` to its end, in its own process group, appending its command line and its
    output to ``log_path`` (its standard output returned instead when ``capture_stdout``). Returns
    the exit code and captured output, or None when it did not end within ``timeout_s`` (it is
    ended then)."""
    with open(log_path, "ab") as log:
        log.write((" ".join(command) + "\n").encode())
        log.flush()
        process = start(command, stdout=subprocess.PIPE if capture_stdout else log,
                        stderr=log if capture_stdout else subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env)
        try:
            out, _ = process.communicate(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            terminate(process)
            return None
        finally:
            forget(process)
    return process.returncode, out or b""
