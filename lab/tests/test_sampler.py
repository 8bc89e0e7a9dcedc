"""The metrics sampler against real processes, files and sockets."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import psutil
import pytest

from vivace_lab.metrics.sample import MetricSample
from vivace_lab.metrics.sampler import Sampler

BURN_CPU = Path(__file__).with_name("burn_cpu.py")


def start_burner(directory: Path, *args: str, ready: int) -> subprocess.Popen:
    """Starts burn_cpu.py and waits until ``ready`` of its processes wait for the go file."""
    proc = subprocess.Popen([sys.executable, str(BURN_CPU), *args])
    while len(list(directory.glob("ready-*"))) < ready:
        assert proc.poll() is None, "burner died"
        time.sleep(0.01)
    return proc


def wait_unreaped(proc: subprocess.Popen) -> None:
    """Waits for the process to exit but leaves it a zombie, so its last CPU times stay readable."""
    os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOWAIT)


def reported_cpu_s(directory: Path) -> float:
    return sum(float(p.read_text()) for p in directory.glob("cpu-*"))


def tree_cpu_s(samples: list[MetricSample]) -> float:
    return sum(s.proc_cpu_percent / 100.0 * s.interval_s for s in samples)


def test_busy_child_and_grandchild_are_seen_and_their_cpu_counted(tmp_path: Path) -> None:
    proc = start_burner(tmp_path, "tree", str(tmp_path), "0.6", ready=2)
    sampler = Sampler(proc.pid, interval_s=0.25).start()
    (tmp_path / "go").touch()
    wait_unreaped(proc)
    samples = sampler.stop()
    assert proc.wait() == 0

    assert max(s.proc_count for s in samples) == 2  # the child and the grandchild
    assert max(s.proc_rss_bytes for s in samples) > 2 * 1024 * 1024
    # The root burns until it exits; how much CPU per interval depends on the machine's load.
    assert all(s.proc_cpu_percent > 0.0 for s in samples[:-1])
    # CPU time is accounted, not sampled: what the sampler saw equals what the processes report
    # burning (within clock ticks and interpreter exit).
    expected = reported_cpu_s(tmp_path)
    assert expected >= 1.2
    assert tree_cpu_s(samples) == pytest.approx(expected, rel=0.1, abs=0.1)


def test_short_lived_grandchildren_are_counted_once(tmp_path: Path) -> None:
    # Five children of 0.2 s CPU each, sampled every 0.3 s: some are seen alive, some never; the
    # CPU of each is counted once, from its own times or from its parent's reaped-children times.
    proc = start_burner(tmp_path, "flash", str(tmp_path), "5", ready=1)
    sampler = Sampler(proc.pid, interval_s=0.3).start()
    (tmp_path / "go").touch()
    wait_unreaped(proc)
    samples = sampler.stop()
    assert proc.wait() == 0

    expected = reported_cpu_s(tmp_path)
    assert len(list(tmp_path.glob("cpu-*"))) == 6
    assert expected >= 1.0
    assert tree_cpu_s(samples) == pytest.approx(expected, rel=0.1, abs=0.15)


def test_cores_and_machine_average(tmp_path: Path) -> None:
    with Sampler(None, interval_s=0.2) as sampler:
        time.sleep(0.5)
    assert sampler.samples
    for s in sampler.samples:
        assert len(s.cores) == psutil.cpu_count()
        for core in s.cores:
            total = core.user + core.system + core.iowait + core.steal + core.idle
            assert total == pytest.approx(100.0)
        assert s.cpu_user == pytest.approx(sum(c.user for c in s.cores) / len(s.cores))
        assert s.cpu_system == pytest.approx(sum(c.system for c in s.cores) / len(s.cores))
        assert s.mem_used_bytes > 0 and s.mem_available_bytes > 0
        assert (s.proc_cpu_percent, s.proc_rss_bytes, s.proc_count) == (0.0, 0, 0)


def test_sample_times_follow_the_interval_on_the_wall_clock() -> None:
    interval = 0.2
    before_ms = time.time_ns() // 1_000_000
    with Sampler(None, interval_s=interval) as sampler:
        time.sleep(1.1)
    after_ms = time.time() * 1000
    samples = sampler.samples
    assert len(samples) >= 4
    times = [s.t_ms for s in samples]
    assert times == sorted(times) and len(set(times)) == len(times)
    assert before_ms + interval * 1000 - 1 <= times[0] <= times[-1] <= after_ms + 1  # ms floors
    steps = sorted(b - a for a, b in zip(times, times[1:-1] + [times[-1]]) if b > a)
    median_step = steps[len(steps) // 2]
    assert median_step == pytest.approx(interval * 1000, rel=0.25)
    for s in samples[1:-1]:
        assert s.interval_s == pytest.approx(interval, rel=0.25)


def test_stop_before_the_first_interval_gives_one_partial_sample() -> None:
    with Sampler(os.getpid(), interval_s=5.0) as sampler:
        time.sleep(0.3)
    assert len(sampler.samples) == 1
    sample = sampler.samples[0]
    assert 0.25 <= sample.interval_s < 5.0
    assert sample.proc_count >= 1 and sample.proc_rss_bytes > 0


def test_disk_writes_are_counted(tmp_path: Path) -> None:
    disk = backing_disk(tmp_path)
    size = 16 * 1024 * 1024
    with Sampler(None, interval_s=0.2) as sampler:
        with open(tmp_path / "data", "wb") as f:
            for _ in range(16):
                f.write(os.urandom(1024 * 1024))
            f.flush()
            os.fsync(f.fileno())
    samples = sampler.samples
    assert all(s.disk_write_bytes >= 0 and s.disk_write_ops >= 0 for s in samples)
    if disk is None:
        pytest.skip(f"{tmp_path} is not on a whole physical disk the sampler counts "
                    "(tmpfs, overlay or a virtual device): only non-negative counters checked")
    assert sum(s.disk_write_bytes for s in samples) >= size
    assert sum(s.disk_write_ops for s in samples) > 0


def backing_disk(path: Path) -> str | None:
    """The physical disk the sampler counts for ``path``'s file system, if it can be told."""
    dev = path.stat().st_dev
    sys_dev = Path(f"/sys/dev/block/{os.major(dev)}:{os.minor(dev)}")
    if os.major(dev) == 0 or not sys_dev.exists():
        return None
    node = sys_dev.resolve()
    if (node / "partition").exists():
        node = node.parent
    return node.name if (Path("/sys/block") / node.name / "device").exists() else None


def test_loopback_traffic_has_its_own_field() -> None:
    payload = b"x" * (4 * 1024 * 1024)
    received = 0

    def drain(conn: socket.socket) -> None:
        nonlocal received
        with conn:
            while chunk := conn.recv(1 << 16):
                received += len(chunk)

    with socket.create_server(("127.0.0.1", 0)) as server:
        with Sampler(None, interval_s=0.2) as sampler:
            with socket.create_connection(server.getsockname()) as client:
                reader = threading.Thread(target=drain, args=(server.accept()[0],))
                reader.start()
                client.sendall(payload)
                client.shutdown(socket.SHUT_WR)
                reader.join()
    assert received == len(payload)
    assert sum(s.net_loopback_bytes for s in sampler.samples) >= len(payload)


def test_a_missing_root_fails_at_start() -> None:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    with pytest.raises(psutil.NoSuchProcess):
        Sampler(proc.pid).start()


def test_root_that_exits_leaves_an_empty_tree(tmp_path: Path) -> None:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    with Sampler(proc.pid, interval_s=0.1) as sampler:
        proc.wait()
        time.sleep(0.3)
    assert sampler.samples[-1].proc_count == 0


class FailingSampler(Sampler):
    """Fails on its second sample, as a broken reading would."""

    def _take_sample(self) -> MetricSample:
        if self.samples:
            raise OSError("disk counters vanished")
        return super()._take_sample()


def test_an_exception_in_the_thread_is_raised_by_stop() -> None:
    sampler = FailingSampler(None, interval_s=0.05).start()
    while sampler.error is None:
        time.sleep(0.01)
    with pytest.raises(OSError, match="disk counters vanished"):
        sampler.stop()
    assert len(sampler.samples) == 1


def test_the_body_exception_wins_and_notes_the_sampler_failure() -> None:
    with pytest.raises(KeyError) as caught:
        with FailingSampler(None, interval_s=0.05) as sampler:
            while sampler.error is None:
                time.sleep(0.01)
            raise KeyError("body")
    assert any("disk counters vanished" in note for note in caught.value.__notes__)


def test_the_sampler_measures_its_own_cost() -> None:
    with Sampler(os.getpid(), interval_s=0.1) as sampler:
        time.sleep(0.5)
    cost = sampler.cost
    assert cost.readings == len(sampler.samples) + 1  # the baseline reading too
    assert cost.cpu_s > 0 and cost.wall_s > 0
    assert cost.cpu_ms_per_reading == pytest.approx(1000 * cost.cpu_s / cost.readings)
