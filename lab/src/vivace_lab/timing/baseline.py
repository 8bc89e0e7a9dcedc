"""``--baseline REF``: another revision of this repository, checked out in a git worktree of its
own under the work directory and built there (`mvn -B -q -DskipTests package`); its runs go
through its own `vivace` launcher and driver, as that revision ships them, class data sharing
archive included, as the engine ``vivace@<commit>``."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

from vivace_lab import paths
from vivace_lab.engines.local_engines import VivaceEngine


class BaselineError(RuntimeError):
    """The baseline cannot be checked out or built; the message says why and where the log is."""


def git(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=cwd or paths.vivace_home(), capture_output=True, text=True,
                          stdin=subprocess.DEVNULL)


def git_describe(checkout: Path) -> str:
    """The commit a checkout is at, "-dirty" when it has changes; "" outside git."""
    if not checkout.is_dir():
        return ""
    described = git("describe", "--always", "--dirty", "--abbrev=12", cwd=checkout)
    return described.stdout.strip() if described.returncode == 0 else ""


class BaselineEngine(VivaceEngine):
    """The embedded Vivace runtime of another checkout, run by that checkout's launcher."""

    def __init__(self, name: str, launcher: Path) -> None:
        self.name = name
        self.launcher = launcher


class BaselineBuild:
    def __init__(self, ref: str, work: Path) -> None:
        commit = git("rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")
        if commit.returncode != 0:
            raise ValueError(f"--baseline {ref}: not a commit of the repository at {paths.vivace_home()}")
        self.ref = ref
        self.commit = commit.stdout.strip()
        self.short = git("rev-parse", "--short", self.commit).stdout.strip()
        self.checkout = work / f"baseline-{self.short}"
        self.log_file = work / f"baseline-{self.short}-build.log"

    @property
    def engine_name(self) -> str:
        return f"vivace@{self.short}"

    def engine(self) -> BaselineEngine:
        return BaselineEngine(self.engine_name, self.checkout / "vivace")

    def prepare(self, say: Callable[[str], None]) -> None:
        """Checks the revision out (or reuses a clean checkout of it that --keep left) and builds it."""
        if self.checkout.exists():
            at = git("rev-parse", "HEAD", cwd=self.checkout).stdout.strip()
            if at != self.commit or git_describe(self.checkout).endswith("-dirty"):
                raise BaselineError(f"{self.checkout} exists but is not a clean checkout of {self.commit};"
                                    f" remove it (git worktree remove --force {self.checkout})")
            say(f"baseline {self.ref}: reusing {self.checkout}")
        else:
            self.checkout.parent.mkdir(parents=True, exist_ok=True)
            added = git("worktree", "add", "--detach", str(self.checkout), self.commit)
            if added.returncode != 0:
                raise BaselineError(f"git worktree add {self.checkout} {self.commit} failed:\n{added.stderr.strip()}")
            say(f"baseline {self.ref}: checked out {self.commit} in {self.checkout}")
        say(f"baseline {self.ref}: building (mvn -B -q -DskipTests package; log {self.log_file})")
        with open(self.log_file, "wb") as out:
            built = subprocess.run(["mvn", "-B", "-q", "-DskipTests", "package"], cwd=self.checkout,
                                   stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        if built.returncode != 0:
            raise BaselineError(f"building {self.ref} ({self.commit}) in {self.checkout} failed; see {self.log_file}")
        # its launcher agrees that the build is current (else it would build again, timed)
        with open(self.log_file, "ab") as out:
            listed = subprocess.run([str(self.checkout / "vivace"), "classpath"], stdout=subprocess.DEVNULL,
                                    stderr=out, stdin=subprocess.DEVNULL)
        if listed.returncode != 0:
            raise BaselineError(f"`{self.checkout / 'vivace'} classpath` failed; see {self.log_file}")

    def remove(self, say: Callable[[str], None]) -> None:
        removed = git("worktree", "remove", "--force", str(self.checkout))
        if removed.returncode != 0:
            shutil.rmtree(self.checkout, ignore_errors=True)
            git("worktree", "prune")
        say(f"baseline {self.ref}: removed {self.checkout}")
