"""The configuration keys a study may set, read from the *-default.xml files inside the Hadoop jars
the runs use, plus Vivace's own keys and the keys Apache's workload programs read."""

from __future__ import annotations

import difflib
import xml.etree.ElementTree as ElementTree
import zipfile
from dataclasses import dataclass
from pathlib import Path

DEFAULT_FILES = ("core-default.xml", "hdfs-default.xml", "mapred-default.xml", "yarn-default.xml")

VIVACE_KEYS = {
    "vivace.slots": "8",  # a number, like the engine's default on most machines
    "vivace.shuffle.memory.mb": "256",
    "vivace.history.dir": "",
}

# Read by the programs themselves, so absent from the default files.
PROGRAM_KEYS = {
    "mapreduce.terasort.output.replication": "1",
    "mapreduce.terasort.partitions.sample": "100000",
    "mapreduce.terasort.simplepartitioner": "false",
    "mapreduce.terasort.final.sync": "true",
    "mapreduce.terasort.use.terascheduler": "true",
    "mapreduce.randomwriter.bytespermap": "1073741824",
    "mapreduce.randomtextwriter.bytespermap": "1073741824",
    "test.io.file.buffer.size": "1000000",
    "dfs.replication": "3",
    "dfs.blocksize": "134217728",
}


@dataclass(frozen=True)
class HadoopKeys:
    """Known keys and their default values."""

    defaults: dict[str, str]

    @classmethod
    def from_jars(cls, jars: list[Path]) -> "HadoopKeys":
        defaults: dict[str, str] = {}
        for jar in jars:
            if not jar.name.endswith(".jar") or not jar.is_file():
                continue
            with zipfile.ZipFile(jar) as archive:
                for name in DEFAULT_FILES:
                    if name in archive.namelist():
                        defaults.update(_properties(archive.read(name)))
        if not defaults:
            raise FileNotFoundError(
                "no Hadoop *-default.xml found in the classpath jars; is the Java side built?")
        defaults.update(PROGRAM_KEYS)
        defaults.update(VIVACE_KEYS)
        return cls(defaults)

    def check(self, key: str, value: object) -> str | None:
        """None when the key is known and the value fits its default's type; else the reason."""
        if key not in self.defaults:
            close = difflib.get_close_matches(key, self.defaults.keys(), n=1, cutoff=0.8)
            hint = f" (did you mean {close[0]}?)" if close else ""
            return f"unknown configuration key '{key}'{hint}"
        return _type_mismatch(key, self.defaults[key], value)


def _properties(xml_bytes: bytes) -> dict[str, str]:
    out = {}
    for prop in ElementTree.fromstring(xml_bytes).iter("property"):
        name = prop.findtext("name")
        if name:
            out[name.strip()] = (prop.findtext("value") or "").strip()
    return out


def _type_mismatch(key: str, default: str, value: object) -> str | None:
    text = str(value).strip()
    if default.lower() in ("true", "false"):
        if isinstance(value, bool) or text.lower() in ("true", "false"):
            return None
        return f"{key} takes true or false, not '{text}'"
    if _is_int(default):
        if not isinstance(value, bool) and _is_int(text):
            return None
        return f"{key} takes a whole number, not '{text}'"
    if _is_float(default):
        if not isinstance(value, bool) and _is_float(text):
            return None
        return f"{key} takes a number, not '{text}'"
    return None


def _is_int(text: str) -> bool:
    try:
        int(text)
        return True
    except ValueError:
        return False


def _is_float(text: str) -> bool:
    try:
        float(text)
        return True
    except ValueError:
        return False


def classpath_jars(vivace_home: Path, launcher: Path) -> list[Path]:
    """The jars runs use: `vivace classpath` (which builds the Java side when needed) plus the
    bench driver's dependencies (HDFS, YARN)."""
    import subprocess

    printed = subprocess.run([str(launcher), "classpath"], check=True, capture_output=True, text=True)
    entries = printed.stdout.strip().split(":")
    driver_classpath = vivace_home / "driver" / "target" / "classpath.txt"
    if driver_classpath.is_file():
        entries += driver_classpath.read_text().strip().split(":")
    return [Path(entry) for entry in entries if entry.endswith(".jar")]
