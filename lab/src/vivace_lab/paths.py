"""Where things are: the Vivace checkout, the lab's working folder, the default database."""

from __future__ import annotations

import os
from pathlib import Path


def vivace_home() -> Path:
    """The checkout holding the `vivace` launcher ($VIVACE_HOME, else the one this package is in)."""
    configured = os.environ.get("VIVACE_HOME")
    home = Path(configured) if configured else Path(__file__).resolve().parents[3]
    if not (home / "vivace").is_file():
        raise FileNotFoundError(f"no `vivace` launcher in {home}; set VIVACE_HOME to the checkout")
    return home


def launcher() -> Path:
    return vivace_home() / "vivace"


def lab_home() -> Path:
    """Generated data, run folders, reports and the default database ($VIVACE_LAB_HOME)."""
    configured = os.environ.get("VIVACE_LAB_HOME")
    return Path(configured).resolve() if configured else vivace_home() / "lab" / "work"


def default_database_url() -> str:
    configured = os.environ.get("VIVACE_LAB_DB")
    return configured if configured else f"sqlite:///{lab_home() / 'lab.db'}"


def bundled_study(name: str) -> Path | None:
    """A study spec shipped with the lab (`headline`, ...), if one has that name."""
    path = Path(__file__).resolve().parent / "studies" / f"{name}.yaml"
    return path if path.is_file() else None
