"""A throw-away PostgreSQL server for the tests.

``PostgresServer.obtain()`` gives the URL of a server the tests may create schemas in:

1. ``$VIVACE_LAB_TEST_POSTGRES_URL`` when set (a server someone else runs; nothing is started);
2. otherwise PostgreSQL's server binaries (``initdb``, ``pg_ctl``, ``postgres``) from
   ``/usr/lib/postgresql/*/bin`` or ``$PATH``; when there are none,
   ``lab/scripts/install-postgres.sh`` installs Debian's ``postgresql`` package (as root, or
   through ``sudo -n``);
3. ``initdb`` into a temporary directory, then ``pg_ctl start`` on a free loopback port with the
   socket in that directory. PostgreSQL refuses to run as root, so as root both run as the
   ``postgres`` system user (``runuser``), which owns the data directory.

``stop()`` stops the server and removes the directory; it is also registered with ``atexit`` so
an interrupted test session does not leave a server behind.
"""

from __future__ import annotations

import atexit
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

URL_ENV = "VIVACE_LAB_TEST_POSTGRES_URL"
SKIP_ENV = "VIVACE_LAB_SKIP_POSTGRES"
INSTALL_SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "install-postgres.sh"
DATABASE = "vivace_lab_test"
SERVER_USER = "postgres"


class PostgresUnavailable(RuntimeError):
    """No PostgreSQL server could be found, installed or started; the message says why."""


@dataclass
class PostgresServer:
    url: str  # postgresql+psycopg://... of a database the tests may create schemas in
    how: str  # one line: where the server came from (for the test report)
    install_s: float | None = None  # seconds the package install took, None when none was needed
    _root: Path | None = None
    _bindir: Path | None = None
    _user: str | None = None

    @classmethod
    def obtain(cls) -> PostgresServer:
        external = os.environ.get(URL_ENV)
        if external:
            return cls(url=external, how=f"external server from ${URL_ENV}")
        bindir, install_s = _server_binaries()
        return _start(bindir, install_s)

    def stop(self) -> None:
        root, self._root = self._root, None
        if root is None:
            return
        try:
            _run_as(self._user, [str(self._bindir / "pg_ctl"), "-D", str(root / "data"),
                                 "-m", "immediate", "-w", "stop"], timeout=60)
        except (subprocess.SubprocessError, OSError):
            pass
        shutil.rmtree(root, ignore_errors=True)


def _server_binaries() -> tuple[Path, float | None]:
    found = _find_binaries()
    if found:
        return found, None
    if not INSTALL_SCRIPT.exists():
        raise PostgresUnavailable(f"no PostgreSQL server binaries and no {INSTALL_SCRIPT}")
    started = time.monotonic()
    proc = subprocess.run(["sh", str(INSTALL_SCRIPT)], capture_output=True, text=True)
    install_s = time.monotonic() - started
    if proc.returncode != 0:
        tail = (proc.stdout + proc.stderr).strip().splitlines()[-15:]
        raise PostgresUnavailable(
            f"no PostgreSQL server binaries, and {INSTALL_SCRIPT.name} failed "
            f"(exit {proc.returncode}):\n" + "\n".join(tail))
    found = _find_binaries()
    if not found:
        raise PostgresUnavailable(f"{INSTALL_SCRIPT.name} ran but no server binaries appeared")
    return found, install_s


def _find_binaries() -> Path | None:
    """The newest directory holding initdb, pg_ctl and postgres (dangling links do not count)."""
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin"),
                        key=lambda d: _version_of(d), reverse=True)
    on_path = shutil.which("pg_ctl")
    if on_path:
        candidates.append(str(Path(on_path).resolve().parent))
    for d in candidates:
        if all(os.access(Path(d) / exe, os.X_OK) for exe in ("initdb", "pg_ctl", "postgres")):
            return Path(d)
    return None


def _version_of(bindir: str) -> int:
    try:
        return int(Path(bindir).parent.name)
    except ValueError:
        return 0


def _server_user() -> str | None:
    """The user to run the server as: None (this one) unless we are root."""
    if os.geteuid() != 0:
        return None
    try:
        pwd.getpwnam(SERVER_USER)
    except KeyError:
        raise PostgresUnavailable(
            f"running as root and there is no {SERVER_USER!r} user to run PostgreSQL as "
            "(PostgreSQL refuses to run as root)") from None
    return SERVER_USER


def _run_as(user: str | None, argv: list[str], timeout: float) -> subprocess.CompletedProcess:
    if user is not None:
        argv = ["runuser", "-u", user, "--", *argv]
    return subprocess.run(argv, capture_output=True, text=True, timeout=timeout, cwd="/")


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(bindir: Path, install_s: float | None) -> PostgresServer:
    user = _server_user()
    root = Path(tempfile.mkdtemp(prefix="vivace-lab-pg-"))
    os.chmod(root, 0o755)  # the server user must reach data/ and sock/ inside
    data, sock = root / "data", root / "sock"
    sock.mkdir()
    if user is not None:
        entry = pwd.getpwnam(user)
        os.chown(sock, entry.pw_uid, entry.pw_gid)
        data.mkdir(mode=0o700)
        os.chown(data, entry.pw_uid, entry.pw_gid)
    server = PostgresServer(url="", how="", install_s=install_s, _root=root, _bindir=bindir,
                            _user=user)
    atexit.register(server.stop)
    try:
        init = _run_as(user, [str(bindir / "initdb"), "-D", str(data), "-U", "postgres",
                              "--auth=trust", "--encoding=UTF8", "--locale=C.UTF-8",
                              "--no-sync"], timeout=120)
        if init.returncode != 0:
            raise PostgresUnavailable(f"initdb failed: {(init.stdout + init.stderr).strip()}")
        port, start = 0, None
        for _ in range(3):  # a port found free can be taken before the server binds it
            port = _free_port()
            options = (f"-p {port} -k {sock} -c listen_addresses=127.0.0.1 "
                       "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
                       "-c max_connections=50")
            start = _run_as(user, [str(bindir / "pg_ctl"), "-D", str(data), "-l",
                                   str(sock / "server.log"), "-o", options, "-w", "-t", "60",
                                   "start"], timeout=90)
            if start.returncode == 0:
                break
        if start is None or start.returncode != 0:
            log = (sock / "server.log").read_text(errors="replace")[-2000:] \
                if (sock / "server.log").exists() else ""
            raise PostgresUnavailable(
                f"pg_ctl start failed: {(start.stdout + start.stderr).strip()}\n{log}")
        base = f"postgresql+psycopg://postgres@127.0.0.1:{port}"
        _create_database(f"host=127.0.0.1 port={port} user=postgres dbname=postgres")
        server.url = f"{base}/{DATABASE}"
        version = bindir.parent.name
        how = f"PostgreSQL {version} started from {bindir} on 127.0.0.1:{port}"
        if user:
            how += f" as user {user!r}"
        if install_s is not None:
            how += f"; installed first by {INSTALL_SCRIPT.name} in {install_s:.0f} s"
        server.how = how
        return server
    except BaseException:
        server.stop()
        raise


def _create_database(conninfo: str) -> None:
    import psycopg

    with psycopg.connect(conninfo, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {DATABASE}")
