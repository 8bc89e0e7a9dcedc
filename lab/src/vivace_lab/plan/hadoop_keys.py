"""The configuration keys a study may set: those of the *-default.xml files inside the Hadoop jars the
runs use (with their defaults, which give a value's type), those the Hadoop and Vivace classes name
in their code, and Vivace's own (vivace.*), with their declared types, from the vivace-default.xml of
the runtime jar."""

from __future__ import annotations

import difflib
import re
import xml.etree.ElementTree as ElementTree
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

DEFAULT_FILES = ("core-default.xml", "hdfs-default.xml", "mapred-default.xml", "yarn-default.xml")
# Every vivace.* key, typed (its header describes the format): runtime/src/main/resources.
VIVACE_REGISTRY = "vivace-default.xml"

# Keys the code reads without listing them in a default file (JobConf's comparator class, TeraSort's
# own keys, the lustre:// file system's, all of Tez's) are string constants in the classes: a
# CONSTANT_Utf8 entry of the class file, tag 1 and a two-byte length before the text. Vivace's own
# come from the registry.
_KEY_PREFIXES = (b"mapreduce", b"mapred", b"yarn", b"dfs", b"fs", b"io", b"hadoop", b"ipc", b"file",
                 b"net", b"ha", b"rpc", b"security", b"tfile", b"seq", b"tez")
_CLASS_CONSTANT_KEY = re.compile(rb"\x01(..)((?:" + b"|".join(_KEY_PREFIXES) + rb")\.[A-Za-z0-9._-]+)")
_SCANNED_JARS = ("hadoop-", "vivace-", "tez-")


@dataclass(frozen=True)
class HadoopKeys:
    """Known keys and their default values; `types` holds the declared types of Vivace's keys
    (boolean, int, long, double, string or a choice "a|b"), which take precedence over a type
    guessed from the default."""

    defaults: dict[str, str]
    types: dict[str, str] = field(default_factory=dict)

    @classmethod
    def from_jars(cls, jars: list[Path]) -> "HadoopKeys":
        defaults: dict[str, str] = {}
        constants: set[str] = set()
        vivace: dict[str, DeclaredKey] | None = None
        for jar in jars:
            if not jar.name.endswith(".jar") or not jar.is_file():
                continue
            with zipfile.ZipFile(jar) as archive:
                names = archive.namelist()
                for name in DEFAULT_FILES:
                    if name in names:
                        defaults.update(_properties(archive.read(name)))
                if VIVACE_REGISTRY in names and vivace is None:
                    vivace = vivace_keys(archive.read(VIVACE_REGISTRY), f"{jar}!{VIVACE_REGISTRY}")
                if jar.name.startswith(_SCANNED_JARS):
                    constants.update(_class_constant_keys(archive, names))
        if not defaults:
            raise FileNotFoundError(
                "no Hadoop *-default.xml found in the classpath jars; is the Java side built?")
        if vivace is None:
            raise FileNotFoundError(
                f"no {VIVACE_REGISTRY} found in the classpath jars; is the runtime jar built?")
        known = {key: "" for key in constants}
        known.update(defaults)
        known.update({key: declared.default for key, declared in vivace.items()})
        return cls(known, {key: declared.type for key, declared in vivace.items()})

    def check(self, key: str, value: object) -> str | None:
        """None when the key is known and the value fits its type (declared, else its default's);
        else the reason."""
        if key not in self.defaults:
            close = difflib.get_close_matches(key, self.defaults.keys(), n=1, cutoff=0.8)
            hint = f" (did you mean {close[0]}?)" if close else ""
            return f"unknown configuration key '{key}'{hint}"
        if key in self.types:
            return _declared_type_mismatch(key, self.types[key], value)
        return _type_mismatch(key, self.defaults[key], value)


class DeclaredKey(NamedTuple):
    """A key as vivace-default.xml declares it: its type and its literal default ('' when the
    default is computed or there is none)."""

    type: str
    default: str


def vivace_keys(xml_bytes: bytes, source: str) -> dict[str, DeclaredKey]:
    """The keys of a vivace-default.xml. The runtime checks the file itself (KeyRegistry); this
    only refuses what it cannot read."""
    out = {}
    for prop in ElementTree.fromstring(xml_bytes).iter("property"):
        name = (prop.findtext("name") or "").strip()
        declared = (prop.findtext("type") or "").strip()
        if not name or not declared:
            raise ValueError(f"{source}: a property without <name> or <type> ({name or 'unnamed'})")
        out[name] = DeclaredKey(declared, (prop.findtext("value") or "").strip())
    return out


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


_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")
_RANGES = {"int": (-2**31, 2**31 - 1), "long": (-2**63, 2**63 - 1)}


def _declared_type_mismatch(key: str, declared: str, value: object) -> str | None:
    """As the runtime's KeyType reads a value (Java's parseInt, parseLong, parseDouble)."""
    text = str(value).strip()
    if declared == "boolean":
        if isinstance(value, bool) or text.lower() in ("true", "false"):
            return None
        return f"{key} takes true or false, not '{text}'"
    if declared in _RANGES:
        low, high = _RANGES[declared]
        if not isinstance(value, bool) and _WHOLE_NUMBER.fullmatch(text) and low <= int(text) <= high:
            return None
        return f"{key} takes a whole number from {low} to {high} ({declared}), not '{text}'"
    if declared == "double":
        if not isinstance(value, bool) and "_" not in text and _is_float(text):
            return None
        return f"{key} takes a number, not '{text}'"
    if "|" in declared:
        choices = declared.split("|")
        if text in choices:
            return None
        return f"{key} takes one of {', '.join(choices)}, not '{text}'"
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
