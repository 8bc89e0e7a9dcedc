"""Debian's chromium for the browser tests, driven by Playwright (never Playwright's own browser
downloads).

``find_chromium()`` returns the chromium executable: ``/usr/bin/chromium`` (or ``chromium`` on
``PATH``); when there is none, ``lab/scripts/install-chromium.sh`` installs Debian's package with
apt-get (as root, or through ``sudo -n``). ``BrowserUnavailable`` says why there is none.
"""

from __future__ import annotations

import shutil
import subprocess
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
