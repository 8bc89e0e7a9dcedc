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
