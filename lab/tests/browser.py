"""Debian's chromium for the browser tests, driven by Playwright (never Playwright's own browser
downloads).

``find_chromium()`` returns the chromium executable: ``/usr/bin/chromium`` (or ``chromium`` on
``PATH``); when there is none, ``lab/scripts/install-chromium.sh`` installs Debian's package with
apt-get (as root, or through ``sudo -n``). ``BrowserUnavailable`` says why there is none.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

SKIP_ENV = "VIVACE_LAB_SKIP_BROWSER"
INSTALL_SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "install-chromium.sh"
#: how the tests launch it: headless, and nothing that reaches out to the network by itself
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


class BrowserUnavailable(RuntimeError):
    """No chromium could be found or installed; the message says why."""


def find_chromium() -> str:
    found = _installed()
    if found:
        return found
    if not INSTALL_SCRIPT.exists():
        raise BrowserUnavailable(f"no chromium and no {INSTALL_SCRIPT}")
    proc = subprocess.run(["sh", str(INSTALL_SCRIPT)], capture_output=True, text=True)
    found = _installed()
    if proc.returncode != 0 or not found:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-5:]
        raise BrowserUnavailable(f"{INSTALL_SCRIPT.name} failed (exit {proc.returncode}): "
                                 + " | ".join(tail))
    return found


def _installed() -> str | None:
    if Path("/usr/bin/chromium").is_file():
        return "/usr/bin/chromium"
    return shutil.which("chromium")


@contextmanager
def lab_server(db: Path) -> Iterator[str]:
    """`vivace lab serve` as a process on a free port over the SQLite file ``db`` (its log beside
    it); yields the base URL, stops the server at the end."""
    port = _free_port()
    log_path = db.parent / "serve.log"
    with open(log_path, "w") as log:
        proc = subprocess.Popen([sys.executable, "-m", "vivace_lab", "--db", str(db),
                                 "--home", str(db.parent), "serve", "--port", str(port)],
                                stdout=log, stderr=subprocess.STDOUT)
        base = f"http://127.0.0.1:{port}"
        try:
            _wait_until_up(base, proc, log_path)
            yield base
        finally:
            proc.terminate()
            proc.wait(timeout=30)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_until_up(base: str, proc: subprocess.Popen, log: Path, timeout_s: float = 120) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"vivace lab serve exited {proc.returncode}: {log.read_text()}")
        try:
            with urllib.request.urlopen(base + "/runs", timeout=5) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise AssertionError(f"vivace lab serve did not answer in {timeout_s} s: {log.read_text()}")
