"""The end of a child process's log, for failure messages."""

from __future__ import annotations

from pathlib import Path


def log_tail(path: Path, lines: int = 15) -> str:
    """The last non-empty lines joined on one line, then where the whole log is."""
    try:
        text = path.read_text(errors="replace").splitlines()
    except OSError:
        return f"(no log at {path})"
    return " | ".join(line.strip() for line in text[-lines:] if line.strip()) + f" (log: {path})"
