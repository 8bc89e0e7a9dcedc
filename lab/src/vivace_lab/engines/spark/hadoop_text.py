"""What Hadoop's WordCount does to text, byte for byte: its tokens and its reducers' partitions."""

from __future__ import annotations

import re

# java.util.StringTokenizer's default delimiters; Hadoop's line reader splits on \n and \r too,
# so tokenising whole lines with them counts exactly what WordCount's mapper counts.
_DELIMITERS = re.compile(rb"[ \t\n\r\f]+")
_INT_MASK = 0xFFFFFFFF
_INT_MAX = 0x7FFFFFFF


def tokens(line: bytes) -> list[bytes]:
    return [token for token in _DELIMITERS.split(line) if token]


def text_hash(word: bytes) -> int:
    """Text.hashCode(): WritableComparator.hashBytes over the UTF-8 bytes, each a signed Java byte,
    in 32-bit int arithmetic."""
    h = 1
    for b in word:
        h = (31 * h + (b - 256 if b > 127 else b)) & _INT_MASK
    return h


def hash_partition(word: bytes, partitions: int) -> int:
    """HashPartitioner: (hashCode & Integer.MAX_VALUE) % partitions."""
    return (text_hash(word) & _INT_MAX) % partitions
