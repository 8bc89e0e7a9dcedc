"""Connecting to the results database: URL handling, engine set-up, sessions, schema creation."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Engine, create_engine, event, select
from sqlalchemy.engine import make_url
from sqlalchemy.engine.url import URL
from sqlalchemy.exc import IntegrityError, ProgrammingError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import StaticPool

from vivace_lab.store.schema import SCHEMA_VERSION, Base, SchemaInfo

SQLITE_BUSY_TIMEOUT_MS = 30_000


class SchemaVersionError(RuntimeError):
    """The database was made by a lab with another schema version."""


def database_url(url: str) -> URL:
    """The SQLAlchemy URL for what a user typed.

    A plain path (no ``://``) is an SQLite file; ``postgresql://`` and ``postgres://`` get the
    psycopg (version 3) driver, the one the lab installs; any other URL is taken as is.
    """
    text = str(url).strip()
    if not text:
        raise ValueError("empty database URL")
    if "://" not in text:
        if text == ":memory:":
            return make_url("sqlite://")
        return URL.create("sqlite", database=str(Path(text).expanduser().resolve()))
    if text.startswith("postgres://"):
        text = "postgresql://" + text[len("postgres://"):]
    parsed = make_url(text)
    if parsed.drivername == "postgresql":
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed


def make_engine(url: str) -> Engine:
    sa_url = database_url(url)
    if sa_url.get_backend_name() == "sqlite":
        return _sqlite_engine(sa_url)
    return create_engine(sa_url, pool_pre_ping=True)


def _sqlite_engine(sa_url: URL) -> Engine:
    in_memory = sa_url.database in (None, "", ":memory:")
    if in_memory:
        engine = create_engine(sa_url, poolclass=StaticPool,
                               connect_args={"check_same_thread": False})
    else:
        Path(sa_url.database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(sa_url)

    @event.listens_for(engine, "connect")
    def _configure(dbapi_connection, _record):
        # Transactions are begun by us (below), not by the sqlite3 module, so that a transaction
        # covers reads too and a writer can take the write lock up front.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            # first, so that the statements below wait for a lock too
            cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
            if not in_memory:
                cursor.execute("PRAGMA journal_mode=WAL")
                # with WAL: durable across process crashes; a power cut may lose the last commits
                # but never leaves a half-written one
                cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
        finally:
            cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(conn):
        # writers ask for IMMEDIATE: the write lock is taken at BEGIN (waiting up to busy_timeout)
        # instead of failing when a read transaction later tries to upgrade
        mode = conn.get_execution_options().get("sqlite_begin", "DEFERRED")
        conn.exec_driver_sql(f"BEGIN {mode}")

    return engine


def session_factories(engine: Engine) -> tuple[sessionmaker[Session], sessionmaker[Session]]:
    """(readers, writers): sessions that read, and sessions that write (SQLite: BEGIN IMMEDIATE)."""
    read = sessionmaker(engine, expire_on_commit=False)
    write = sessionmaker(engine.execution_options(sqlite_begin="IMMEDIATE"),
                         expire_on_commit=False)
    return read, write


def ensure_schema(engine: Engine) -> None:
    """Create missing tables and indexes (idempotent); refuse a database of another version.

    Two processes opening a new database at once can race on the CREATEs; the loser retries and
    then finds everything there. On SQLite the check and the CREATEs run in one IMMEDIATE
    transaction: a deferred one that read first could not upgrade to writing once the other
    process had written ("database is locked", whatever the busy timeout).
    """
    writer = engine.execution_options(sqlite_begin="IMMEDIATE")
    for attempt in range(3):
        try:
            Base.metadata.create_all(writer, checkfirst=True)
            with Session(writer) as session, \
                    session.begin():
                version = session.scalar(
                    select(SchemaInfo.value).where(SchemaInfo.key == "schema_version"))
                if version is None:
                    session.add(SchemaInfo(key="schema_version", value=str(SCHEMA_VERSION)))
            break
        except (IntegrityError, ProgrammingError):
            if attempt == 2:
                raise
    if version is not None and version != str(SCHEMA_VERSION):
        raise SchemaVersionError(
            f"{engine.url.render_as_string(hide_password=True)} has schema version {version}; "
            f"this vivace-lab reads and writes version {SCHEMA_VERSION}")
