"""Many rows into one table, fast, inside the caller's transaction.

SQLAlchemy's executemany processes every parameter of every row in Python; for the thousands of
configuration keys, tasks, counters and samples of a run that costs more than the database work.
Here rows are plain tuples of database-ready values (JSON already serialised) handed straight to
the driver: ``executemany`` on SQLite, ``COPY ... FROM STDIN`` on PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import islice

from sqlalchemy import Connection, Table
from sqlalchemy.exc import DBAPIError

#: rows per driver call (SQLite) — bounds the memory a very long run's rows take at once
BATCH = 10_000


def bulk_insert(conn: Connection, table: Table, columns: Sequence[str],
                rows: Iterable[tuple]) -> None:
    preparer = conn.dialect.identifier_preparer
    names = ", ".join(preparer.quote(c) for c in columns)
    target = preparer.format_table(table)
    if conn.dialect.name == "postgresql":
        _copy(conn, f"COPY {target} ({names}) FROM STDIN", rows)
        return
    sql = f"INSERT INTO {target} ({names}) VALUES ({', '.join('?' * len(columns))})"
    it = iter(rows)
    while batch := list(islice(it, BATCH)):
        conn.exec_driver_sql(sql, batch)


def _copy(conn: Connection, sql: str, rows: Iterable[tuple]) -> None:
    driver_connection = conn.connection.driver_connection  # psycopg's, in this transaction
    dbapi_error = conn.dialect.loaded_dbapi.Error
    try:
        with driver_connection.cursor() as cursor, cursor.copy(sql) as copy:
            for row in rows:
                copy.write_row(row)
    except dbapi_error as error:  # as SQLAlchemy reports errors of its own statements
        raise DBAPIError.instance(sql, None, error, dbapi_error, dialect=conn.dialect) from error
