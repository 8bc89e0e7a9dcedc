"""A description of the machine the lab runs on: the hardware every local run is stored under."""

from __future__ import annotations

import os
import platform
import socket

import psutil


def describe() -> tuple[str, dict]:
    """A name shared by machines of the same shape (the price belongs to it) and its description."""
    cores = os.cpu_count() or 1
    memory_gib = round(psutil.virtual_memory().total / 2**30)
    description = {
        "nodes": 1,
        "cores": cores,
        "memory_gib": memory_gib,
        "cpu": _cpu_model(),
        "hostname": socket.gethostname(),
        "os": platform.platform(),
    }
    return f"local-{cores}c-{memory_gib}g", description


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"
