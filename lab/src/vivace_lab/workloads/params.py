"""Parameter kinds of the workload catalogue: how a spec value is read and checked."""

from __future__ import annotations

import re
from dataclasses import dataclass

_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([A-Za-z]*)\s*$")
# Hadoop's habit: a bare letter (64m, 1g) is binary; kB/MB/GB are decimal; KiB/MiB/GiB binary.
_UNITS = {"": 1, "b": 1,
          "k": 1024, "m": 1024**2, "g": 1024**3, "t": 1024**4,
          "kb": 1000, "mb": 1000**2, "gb": 1000**3, "tb": 1000**4,
          "kib": 1024, "mib": 1024**2, "gib": 1024**3, "tib": 1024**4}


def parse_size(text: str) -> int:
    """Bytes from '1GiB', '256MB', '64m' or '1000'."""
    match = _SIZE.match(str(text))
    unit = match.group(2).lower() if match else None
    if unit not in _UNITS:
        raise ValueError(f"'{text}' is not a size (examples: 1048576, 64MiB, 1GB, 512m)")
    number = match.group(1)
    # whole numbers in integer arithmetic: a float holds integers exactly only up to 2**53
    return int(number) * _UNITS[unit] if number.isdigit() else int(float(number) * _UNITS[unit])


@dataclass(frozen=True)
class Param:
    """One workload parameter as the driver declares it: its kind ('int', 'size', 'number' for a
    real number, or 'text'), default, lower bound (ignored for text), meaning, unit (empty for a
    count) and whether a run needs it (a required parameter has no usable default)."""

    name: str
    kind: str
    default: int | float | str
    minimum: int | float
    help: str
    unit: str = ""
    required: bool = False

    def parse(self, value: object) -> int | float | str:
        if self.kind == "text":
            if isinstance(value, (dict, list)) or value is None:
                raise ValueError(f"{self.name} must be a single word or path, not {value!r}")
            return str(value)
        if isinstance(value, bool):
            raise ValueError(f"{self.name} must be a number, not {value!r}")
        if self.kind == "number":
            try:
                number = float(str(value).strip())
            except ValueError:
                raise ValueError(f"{self.name} must be a number, not {value!r}") from None
            if not number >= self.minimum or number == float("inf"):
                raise ValueError(f"{self.name} must be a number of at least {self.minimum}, not {value!r}")
            return number
        if self.kind == "size":
            number = parse_size(str(value))
        else:
            if isinstance(value, float) and not value.is_integer():
                raise ValueError(f"{self.name} must be a whole number, not {value!r}")
            try:
                number = int(str(value).strip()) if not isinstance(value, (int, float)) else int(value)
            except ValueError:
                raise ValueError(f"{self.name} must be a whole number, not {value!r}") from None
        if number < self.minimum:
            raise ValueError(f"{self.name} must be at least {self.minimum}, not {value!r}")
        return number
