"""The configuration keys a study may set: those of the *-default.xml files inside the Hadoop jars the
runs use (with their defaults, which give a value's type) and those the Hadoop and Vivace classes
name in their code."""

from __future__ import annotations

import difflib
import re
import xml.etree.ElementTree as ElementTree
import zipfile
from dataclasses import dataclass
from pathlib import Path

DEFAULT_FILES = ("core-default.xml", "hdfs-default.xml", "mapred-default.xml", "yarn-default.xml")

# Keys the code reads without listing them in a default file (JobConf's comparator class, TeraSort's
# own keys, Vivace's, all of Tez's) are string constants in the classes: a CONSTANT_Utf8 entry of the class file,
# tag 1 and a two-byte length before the text.
_KEY_PREFIXES = (b"mapreduce", b"mapred", b"yarn", b"dfs", b"fs", b"io", b"hadoop", b"ipc", b"file",
                 b"net", b"ha", b"rpc", b"security", b"tfile", b"seq", b"vivace", b"tez")
_CLASS_CONSTANT_KEY = re.compile(rb"\x01(..)((?:" + b"|".join(_KEY_PREFIXES) + rb")\.[A-Za-z0-9._-]+)")
_SCANNED_JARS = ("hadoop-", "vivace-", "tez-")


@dataclass(frozen=True)
class HadoopKeys:
    """Known keys and their default values."""

    defaults: dict[str, str]

    @classmethod
    def from_jars(cls, jars: list[Path]) -> "HadoopKeys":
        defaults: dict[str, str] = {}
        constants: set[str] = set()
        for jar in jars:
            if not jar.name.endswith(".jar") or not jar.is_file():
                continue
            with zipfile.ZipFile(jar) as archive:
                names = archive.namelist()
                for name in DEFAULT_FILES:
                    if name in names:
                        defaults.update(_properties(archive.read(name)))
                if jar.name.startswith(_SCANNED_JARS):
                    constants.update(_class_constant_keys(archive, names))
        if not defaults:
            raise FileNotFoundError(
                "no Hadoop *-default.xml found in the classpath jars; is the Java side built?")
        return cls({**{key: "" for key in constants}, **defaults})

    def check(self, key: str, value: object) -> str | None:
        """None when the key is known and the value fits its default's type; else the reason."""
        if key not in self.defaults:
            close = difflib.get_close_matches(key, self.defaults.keys(), n=1, cutoff=0.8)
            hint = f" (did you mean {close[0]}?)" if close else ""
            return f"unknown configuration key '{key}'{hint}"
        return _type_mismatch(key, self.defaults[key], value)


def _class_constant_keys(archive: zipfile.ZipFile, names: list[str]) -> set[str]:
    keys = set()
    for name in names:
        if name.endswith(".class"):
            for match in _CLASS_CONSTANT_KEY.finditer(archive.read(name)):
                if int.from_bytes(match.group(1), "big") == len(match.group(2)):
                    keys.add(match.group(2).decode())
    return keys


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
