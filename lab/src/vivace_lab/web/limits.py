"""What request values must be to reach the database: whole numbers within the integer type of
the column they are compared with, text without NUL characters. Outside those the database driver
fails (SQLite's integers are 64-bit, PostgreSQL's INTEGER 32-bit; PostgreSQL text holds no NUL),
which would be a 500 page; the checks here make it a 400 naming the parameter."""

from __future__ import annotations

from typing import Annotated

from fastapi import Path

from vivace_lab.web.errors import bad_parameter

INTEGER_MAX = 2**31 - 1  # Integer columns: ids, task counts, slots
BIG_INTEGER_MAX = 2**63 - 1  # BigInteger columns (bytes), LIMIT and OFFSET
NUL = "\x00"

#: a run id in a URL path: a run's primary key
RunId = Annotated[int, Path(ge=1, le=INTEGER_MAX)]


def whole_number(parameter: str, text: str, minimum: int, maximum: int, what: str = "a whole number") -> int:
    try:
        value = int(text)
    except ValueError:
        value = None
    if value is None or not minimum <= value <= maximum:
        raise bad_parameter(parameter, f"'{text}' is not {what} from {minimum} to {maximum}")
    return value



def nul_problem(parameter: str, text: str) -> str | None:
    """Why ``text`` cannot be compared with a stored text, or None."""
    if NUL not in parameter + text:
        return None
    shown = parameter.replace(NUL, "\\0")
    return f"{shown}: text with a NUL character"
