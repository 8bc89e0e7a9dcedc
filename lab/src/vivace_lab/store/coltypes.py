"""Column types that behave the same on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import datetime, timedelta, UTC

from sqlalchemy import JSON, BigInteger, DateTime, Integer
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.types import TypeDecorator

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MS = timedelta(milliseconds=1)

#: JSON documents: TEXT on SQLite, JSONB on PostgreSQL. Python None is SQL NULL.
Json = JSON(none_as_null=True).with_variant(JSONB(none_as_null=True), "postgresql")

#: 64-bit surrogate keys; on SQLite exactly INTEGER so the column is the rowid.
BigId = BigInteger().with_variant(Integer(), "sqlite")


class UtcDateTime(TypeDecorator):
    """A point in time, always UTC and timezone-aware in Python.

    PostgreSQL: ``timestamp with time zone``. SQLite has no time zones: the naive UTC time is
    stored as ISO text (``2026-11-21 23:16:00.123000``), which sorts in time order.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value, dialect):
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError(f"naive datetime {value!r}: give a timezone-aware (UTC) time")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value, dialect):
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


def from_epoch_ms(ms: int | None) -> datetime | None:
    """Epoch milliseconds to an aware UTC datetime, exactly (no float rounding)."""
    return None if ms is None else EPOCH + timedelta(milliseconds=int(ms))


def to_epoch_ms(when: datetime | None) -> int | None:
    return None if when is None else (when - EPOCH) // _MS


def utc_now() -> datetime:
    now = datetime.now(UTC)
    return now.replace(microsecond=now.microsecond // 1000 * 1000)
