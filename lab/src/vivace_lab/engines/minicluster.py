"""Apache's YARN + HDFS mini-cluster, run by `vivace minicluster` as a child process of the lab."""

from __future__ import annotations

import shutil
import subprocess
import threading
import xml.etree.ElementTree as ElementTree
from pathlib import Path

from vivace_lab import paths, processes
from vivace_lab.engines.base import EngineUnavailable
from vivace_lab.engines.logs import log_tail

START_TIMEOUT_S = 300.0
STOP_TIMEOUT_S = 120.0


class MiniCluster:
    """Starts the cluster under ``home`` and waits for its READY line; ``stop`` closes its stdin,
    which makes it shut down by itself, and kills its process group if it does not. ``options`` are
    more `vivace minicluster` options (its container sizes and AM share)."""

    def __init__(self, home: Path, options: tuple[str, ...] = ()) -> None:
        self.home = home
        self.options = options
        self.conf_file = home / "client-conf.xml"
        self.log_file = home / "minicluster.log"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        try:
            shutil.rmtree(self.home, ignore_errors=True)
            self.home.mkdir(parents=True)
        except OSError as e:
            raise EngineUnavailable(f"cannot prepare its folder {self.home}: {e}") from None
        command = [str(paths.launcher()), "minicluster", "--dir", str(self.home / "cluster"),
                   "--conf-out", str(self.conf_file), *self.options]
        self._log = open(self.log_file, "wb")
        self.process = processes.start(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       stderr=self._log)
        ready = _read_ready_line(self.process, START_TIMEOUT_S)
        if ready is None:
            self.stop()
            raise EngineUnavailable(f"the YARN/HDFS mini-cluster did not start: {log_tail(self.log_file, 10)}")

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process else None

    def default_fs(self) -> str:
        return default_fs_of(self.conf_file)

    @property
    def tez_conf_file(self) -> Path:
        """What a client adds to run MapReduce jobs on Tez (`vivace minicluster` writes it)."""
        return self.conf_file.with_name(self.conf_file.stem + "-tez.xml")

    def client_options(self) -> list[str]:
        """Generic options that make a client of this cluster."""
        return ["-conf", str(self.conf_file)]

    def client_env(self, env: dict[str, str]) -> dict[str, str]:
        return env

    def probe(self) -> None:
        return None  # one host: the machine's samples are the cluster's

    def set_link(self, rate: str) -> None:
        raise EngineUnavailable(f"the mini-cluster has no links to shape to {rate}")

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is None:
            return
        try:
            process.stdin.close()
            process.wait(STOP_TIMEOUT_S)
        except (OSError, subprocess.TimeoutExpired):
            pass
        processes.terminate(process, grace_s=5.0)
        self._log.close()


def default_fs_of(conf_file: Path) -> str:
    """The ``fs.defaultFS`` a Hadoop configuration file names, without a trailing slash."""
    return conf_value(conf_file, "fs.defaultFS").rstrip("/")


def conf_value(conf_file: Path, key: str) -> str:
    """The value a Hadoop configuration file gives ``key``; EngineUnavailable when it gives none."""
    root = ElementTree.parse(conf_file).getroot()
    for prop in root.iter("property"):
        if prop.findtext("name") == key:
            return prop.findtext("value") or ""
    raise EngineUnavailable(f"{conf_file} names no {key}")


def _read_ready_line(process: subprocess.Popen, timeout_s: float) -> str | None:
    found: list[str] = []

    def read() -> None:
        for raw in process.stdout:
            line = raw.decode(errors="replace").strip()
            if line.startswith("READY"):
                found.append(line)
                return

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(timeout_s)
    return found[0] if found else None

