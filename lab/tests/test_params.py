import pytest

from vivace_lab.workloads.catalogue import WORKLOADS
from vivace_lab.workloads.params import parse_size


@pytest.mark.parametrize("text, expected", [
    ("1000", 1000), (4096, 4096), ("64MiB", 64 * 2**20), ("1GB", 10**9), ("512m", 512 * 2**20),
    ("1.5KiB", 1536), ("2 g", 2 * 2**30),
])
def test_sizes(text, expected):
    assert parse_size(text) == expected


@pytest.mark.parametrize("text", ["", "MiB", "12 parsecs", "-5", "1e9"])
def test_bad_sizes(text):
    with pytest.raises(ValueError):
        parse_size(text)


@pytest.mark.integration
def test_input_bytes_follow_the_parameters():
    assert WORKLOADS["terasort"].input_bytes({"rows": 1000, "maps": 2, "reduces": 1}) == 100_000
    assert WORKLOADS["dfsio-read"].input_bytes({"files": 2, "file_mb": 8}) == 16 * 2**20
    assert WORKLOADS["sleep"].input_bytes({"maps": 1, "reduces": 1, "map_ms": 1, "reduce_ms": 1}) is None
