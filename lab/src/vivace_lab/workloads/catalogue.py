"""The workloads the lab knows: the bench driver's own catalogue (`vivace driver --list-workloads`,
docs/run-record.md), with their parameters, read when first needed.

Asking the driver starts a JVM (and builds the Java side in a fresh clone), so its answer is kept
in ``driver/target/vivace-workloads.json`` with the size and time of the driver's jar it came from,
and read from there until the jar changes. The spark engine implements its own subset.
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from vivace_lab import paths
from vivace_lab.workloads.params import Param

MIB = 1024 * 1024
CATALOGUE_FORMAT = 1
DRIVER_JAR = Path("driver", "target", "vivace-driver.jar")
CACHE_FILE = Path("driver", "target", "vivace-workloads.json")


class CatalogueUnavailable(RuntimeError):
    """The driver could not list its workloads (the build failed, ...); the message says why."""


@dataclass(frozen=True)
class Workload:
    name: str
    description: str
    params: tuple[Param, ...]
    roots: str = "any"  # "default": data and work roots must be on the default file system

    def param(self, name: str) -> Param | None:
        return next((p for p in self.params if p.name == name), None)

    def defaults(self) -> dict[str, int | float | str]:
        return {p.name: p.default for p in self.params}

    def input_bytes(self, values: dict[str, str]) -> int | None:
        """Bytes of input the run reads (what throughput is computed from); None when none."""
        if "rows" in values:
            return int(values["rows"]) * 100
        if "bytes" in values:
            return int(values["bytes"])
        if "files" in values:
            return int(values["files"]) * int(values["file_mb"]) * MIB
        return None


def parse_catalogue(data: object) -> dict[str, Workload]:
    """The workloads of `vivace driver --list-workloads`'s JSON, by name, in the driver's order."""
    if not isinstance(data, dict) or data.get("format") != CATALOGUE_FORMAT:
        found = data.get("format") if isinstance(data, dict) else type(data).__name__
        raise CatalogueUnavailable(f"the driver's workload catalogue has format {found!r}; this lab reads "
                                   f"format {CATALOGUE_FORMAT}: the lab and the driver come from different checkouts")
    workloads = {}
    for entry in data["workloads"]:
        params = tuple(Param(p["name"], p["type"], p["default"], p.get("min", 0), p["description"],
                             unit=p.get("unit", ""), required=p.get("required", False))
                       for p in entry["params"])
        workloads[entry["name"]] = Workload(entry["name"], entry["description"], params, entry.get("roots", "any"))
    return workloads


def load_catalogue(vivace_home: Path, launcher: Path, cache_file: Path | None = None) -> dict[str, Workload]:
    """The driver's catalogue: from the cache file while the driver's jar is the one it came from,
    else from the driver itself (which builds the Java side when it is not built), then cached."""
    jar = vivace_home / DRIVER_JAR
    cache_file = cache_file or vivace_home / CACHE_FILE
    cached = _read_cache(cache_file, _stamp(jar))
    if cached is not None:
        return parse_catalogue(cached)
    done = subprocess.run([str(launcher), "driver", "--list-workloads"], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-10:])
        raise CatalogueUnavailable(f"`{launcher} driver --list-workloads` exited with {done.returncode}: {tail}")
    try:
        catalogue = json.loads(done.stdout)
    except ValueError as e:
        raise CatalogueUnavailable(f"`{launcher} driver --list-workloads` printed no JSON ({e})") from None
    workloads = parse_catalogue(catalogue)
    _write_cache(cache_file, _stamp(jar), catalogue)
    return workloads


class DriverCatalogue(Mapping[str, Workload]):
    """The driver's workloads by name, loaded on first use: importing the lab starts no JVM."""

    def __init__(self) -> None:
        self._workloads: dict[str, Workload] | None = None

    def _loaded(self) -> dict[str, Workload]:
        if self._workloads is None:
            self._workloads = load_catalogue(paths.vivace_home(), paths.launcher())
        return self._workloads

    def __getitem__(self, name: str) -> Workload:
        return self._loaded()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._loaded())

    def __len__(self) -> int:
        return len(self._loaded())


WORKLOADS: Mapping[str, Workload] = DriverCatalogue()


def _stamp(jar: Path) -> list[int] | None:
    try:
        status = jar.stat()
    except OSError:
        return None
    return [status.st_size, status.st_mtime_ns]


def _read_cache(cache_file: Path, jar_stamp: list[int] | None) -> object | None:
    if jar_stamp is None:
        return None
    try:
        cached = json.loads(cache_file.read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(cached, dict) or cached.get("driver_jar") != jar_stamp:
        return None
    return cached.get("catalogue")


def _write_cache(cache_file: Path, jar_stamp: list[int] | None, catalogue: object) -> None:
    """Atomically, so that a lab reading it at the same time sees all of it or none; a folder
    that cannot be written leaves the lab asking the driver each time."""
    if jar_stamp is None:
        return
    temporary = None
    try:
        handle, temporary = tempfile.mkstemp(dir=cache_file.parent, prefix=cache_file.name, suffix=".tmp")
        with os.fdopen(handle, "w") as out:
            json.dump({"driver_jar": jar_stamp, "catalogue": catalogue}, out)
        os.chmod(temporary, 0o644)  # as the build's own files, not mkstemp's 0600
        os.replace(temporary, cache_file)
    except OSError:
        if temporary is not None:
            Path(temporary).unlink(missing_ok=True)
