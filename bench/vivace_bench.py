"""Runs MapReduce workloads on Vivace and on Apache's LocalJobRunner, back to back and alternating,
on identical input, and reports each system's median wall time and peak RSS and their ratio.
With --baseline REF the second system is instead another revision of Vivace, built in a git worktree.

Every run is a fresh `./vivace jar ...` process (JVM start included), timed by wall clock; its
peak resident set size comes from the kernel's accounting of that process (wait4's ru_maxrss).
The `latency` workload instead measures inside one warm JVM (io.vivace.workloads.bench.LatencyBench):
the median submit-to-done time of an empty job, and the tasks/s of a sleep job that does not sleep.
The machines are shared and noisy: compare the ratio, which is measured in the same run.
"""

from __future__ import annotations

import argparse
import datetime as dt
import difflib
import hashlib
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VIVACE = ROOT / "vivace"
WORKLOADS_JAR = ROOT / "workloads" / "target" / "vivace-workloads.jar"
EXAMPLES_JAR = ROOT / "runtime" / "target" / "hadoop" / "jobs" / "hadoop-mapreduce-examples.jar"
SLEEP_JOB = "io.vivace.workloads.SplitKeepingSleepJob"
LATENCY_BENCH = "io.vivace.workloads.bench.LatencyBench"
EMPTY_JOB = "io.vivace.workloads.bench.EmptyJob"
PLASMA = "io.vivace.workloads.plasma."
FINRA = "io.vivace.workloads.finra."
KMEANS = "io.vivace.workloads.kmeans."
PAGERANK = "io.vivace.workloads.pagerank."

# Both job clients poll as often as Vivace's does by default (a progress line every 100 ms, a
# completion check every 5 ms): Hadoop's defaults (1 s, 5 s) would add up to a second to every job
# on Apache's runner and measure the client, not the runner.
CLIENT_POLLING = [
    "-D", "mapreduce.client.progressmonitor.pollinterval=100",
    "-D", "mapreduce.client.completion.pollinterval=5",
]

VIVACE_OPTIONS = ["-D", "mapreduce.framework.name=vivace", *CLIENT_POLLING]
# Apache's local runner with its best settings on a 2-core machine (see ../shared/PEERS.md).
LOCAL_OPTIONS = [
    "-D", "mapreduce.framework.name=local", *CLIENT_POLLING,
    "-D", "mapreduce.local.map.tasks.maximum=2",
    "-D", "mapreduce.local.reduce.tasks.maximum=2",
]


@dataclass(frozen=True)
class System:
    """One side of the comparison: the launcher that starts its jobs and the options they get."""
    name: str            # in the results JSON and the run directories' names
    column: str          # the table's heading
    launcher: Path       # a `vivace` script
    options: list[str]   # generic options of every job
    engine: str          # "vivace" or "local": the latency bench's sleep maps (LATENCY_SCALES)
    env: tuple[tuple[str, str], ...] = ()   # environment variables of its jobs' processes


CURRENT = System("vivace", "vivace", VIVACE, VIVACE_OPTIONS, "vivace")
HADOOP_LOCAL = System("hadoop-local", "local", VIVACE, LOCAL_OPTIONS, "local")

# --codecs: short name -> Hadoop codec class for mapreduce.map.output.compress.codec ("none": off).
# These work without libhadoop (Snappy and LZ4 through snappy-java and lz4-java).
CODECS = {
    "none": None,
    "default": "org.apache.hadoop.io.compress.DefaultCodec",
    "deflate": "org.apache.hadoop.io.compress.DeflateCodec",
    "gzip": "org.apache.hadoop.io.compress.GzipCodec",
    "bzip2": "org.apache.hadoop.io.compress.BZip2Codec",
    "snappy": "org.apache.hadoop.io.compress.SnappyCodec",
    "lz4": "org.apache.hadoop.io.compress.Lz4Codec",
}
# Workloads with a shuffle, run once per --codecs entry.
SHUFFLING = ("terasort", "wordcount", "sort")

# The workloads of the driver's catalogue (`./vivace driver --list-workloads`) bench/run runs, each
# with the programs the driver runs and bench's own sizes (SCALES and below); `--list` shows them
# with the catalogue's descriptions.
CATALOGUE_RUNS = ("sleep", "terasort", "wordcount", "sort", "plasma-sort", "finra-query",
                  "finra-concurrency", "kmeans", "pagerank")
# Bench's own measurements, not in the driver's catalogue.
OWN_WORKLOADS = {
    "latency": "empty-job latency and tasks/s (-mt 0) inside one warm JVM",
    "cold-start": "a fresh `./vivace jar` process running one empty job, JVM start included",
}
DEFAULT_WORKLOADS = "sleep,terasort,wordcount,sort,latency,cold-start"

SCALES = {
    # name: sleep maps, terasort rows, wordcount bytes, sort bytes
    "tiny": (200, 100_000, 16 << 20, 16 << 20),
    "default": (5000, 10_000_000, 256 << 20, 256 << 20),
    "large": (5000, 100_000_000, 1 << 30, 1 << 30),
}

# Optional workloads (not in the default --workloads): input bytes per scale.
PLASMA_BYTES = {"tiny": 16 << 20, "default": 256 << 20, "large": 1 << 30}
FINRA_BYTES = {"tiny": 16 << 20, "default": 256 << 20, "large": 1 << 30}
KMEANS_PROFILES = {"tiny": "tiny", "default": "small", "large": "large"}  # HiBench's profiles
PAGERANK_PAGES = {"tiny": 5_000, "default": 500_000, "large": 5_000_000}  # HiBench small..huge

LATENCY_SCALES = {
    # name: warm-up empty jobs, timed empty jobs, sleep maps per engine (LocalJobRunner runs
    # ~60-100 tasks/s, so it gets fewer maps to keep the run short)
    "tiny": (5, 20, {"vivace": 2000, "local": 200}),
    "default": (20, 200, {"vivace": 20_000, "local": 2000}),
    "large": (20, 1000, {"vivace": 100_000, "local": 5000}),
}


@dataclass
class Metric:
    """One number a workload's JSON report holds, shown as a table row of its own."""
    label: str
    path: tuple[str, ...]      # keys into the JSON report
    unit: str
    higher_is_better: bool     # rates: the ratio is current/other; times: other/current
    size: str                  # the table's size column


def metric_value(run: "Run", metric: Metric) -> float:
    value = run.metrics
    for key in metric.path:
        value = value[key]
    return float(value)


@dataclass
class Run:
    workload: str
    size: str
    system: str
    repeat: int
    seconds: float
    peak_rss_mb: float
    ok: bool
    detail: str = ""
    metrics: dict = field(default_factory=dict)   # the workload's own JSON report, if it writes one
    counters: dict = field(default_factory=dict)  # SHUFFLE_COUNTERS as the job client logged them
    cpu_s: float = 0.0         # user + system CPU seconds of the process (less noisy than wall time)


@dataclass
class Workload:
    name: str
    size: str
    args: list[str]            # after `./vivace jar`; {out} is replaced by the output directory,
                               # {run} by the run's own directory
    validate: callable | None = None
    outputs: dict[str, str] = field(default_factory=dict)
    system_args: dict[str, list[str]] = field(default_factory=dict)  # appended for that system
    report: str | None = None  # JSON file (under {run}) the program writes; kept in Run.metrics
    metrics: list[Metric] = field(default_factory=list)  # table rows taken from that report
    options: list[str] = field(default_factory=list)   # generic options for both systems
    input_bytes: int | None = None  # set: Run.metrics gets wall_s and cpu_s_per_gb (from rusage)
    systems: tuple[str, ...] = ()   # runs only on these systems (names); empty: on both


# Counters read back from a run's log (the job client prints them at the end): what map output
# compression changes.
SHUFFLE_COUNTERS = ("Map output bytes", "Map output materialized bytes", "Reduce shuffle bytes",
                    "FILE: Number of bytes written")


def logged_counters(log_file: Path, names: tuple[str, ...] = SHUFFLE_COUNTERS) -> dict[str, int]:
    """The last value of each counter of `names` the job client printed (the main job's)."""
    found = {}
    try:
        text = log_file.read_text(errors="replace")
    except OSError:
        return found
    for line in text.splitlines():
        name, sep, value = line.strip().partition("=")
        if sep and name in names and value.isdigit():
            found[name] = int(value)
    return found


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def run_process(command: list[str], env: dict[str, str], log_file: Path) -> tuple[float, float, int]:
    """Runs a command; returns (wall seconds, peak RSS in MB, exit status)."""
    seconds, rss, status, _ = run_process_cpu(command, env, log_file)
    return seconds, rss, status


def run_process_cpu(command: list[str], env: dict[str, str],
                    log_file: Path) -> tuple[float, float, int, float]:
    """run_process, plus the CPU seconds (user + system) of the process and those it waited for."""
    with open(log_file, "wb") as out:
        start = time.monotonic()
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env,
                                   cwd=log_file.parent)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.monotonic() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    return seconds, usage.ru_maxrss / 1024.0, process.returncode, usage.ru_utime + usage.ru_stime


def examples_jar() -> str:
    # A job jar, not on the classpath: the runtime's build copies it there (`vivace classpath` builds).
    subprocess.run([str(VIVACE), "classpath"], check=True, stdout=subprocess.DEVNULL)
    if not EXAMPLES_JAR.is_file():
        raise SystemExit(f"{EXAMPLES_JAR} missing: build with `mvn -DskipTests package`")
    return str(EXAMPLES_JAR)


def vivace_jar(args: list[str], system_options: list[str], env: dict[str, str], log_file: Path,
               launcher: Path = VIVACE):
    seconds, rss, status, _ = vivace_jar_cpu(args, system_options, env, log_file, launcher)
    return seconds, rss, status


def vivace_jar_cpu(args: list[str], system_options: list[str], env: dict[str, str], log_file: Path,
                   launcher: Path = VIVACE):
    # Generic options must come right after the program name (or class), before its arguments.
    return run_process_cpu([str(launcher), "jar", *args[:2], *system_options, *args[2:]], env, log_file)


def directory_digest(path: Path) -> str:
    digest = hashlib.sha256()
    for part in sorted(path.glob("part-*")):
        digest.update(part.name.encode())
        with open(part, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
    return digest.hexdigest()


class Bench:
    scales = SCALES   # --scale's sizes

    def __init__(self, options: argparse.Namespace, other: System = HADOOP_LOCAL):
        self.options = options
        self.systems = [CURRENT, other]   # the first is this checkout's Vivace
        self.commits = {s.name: git_describe(s.launcher.parent) for s in self.systems}
        self.work = Path(options.work_dir).resolve()
        self.data = self.work / "data"
        self.runs_dir = self.work / "runs"
        self.env = dict(os.environ, VIVACE_HEAPSIZE=options.heap)
        self.examples = examples_jar()
        self.runs: list[Run] = []
        self.load_at_start = os.getloadavg()
        self.metrics: dict[str, list[Metric]] = {}   # workload name -> rows from its report

    # ---- input data, generated once per parameter set and reused -----------------------

    def generate(self, name: str, args: list[str], expected_bytes: int | None = None) -> Path:
        target = self.data / name
        marker = target / "_BENCH_INPUT"
        if marker.exists():
            return target
        if target.exists():
            shutil.rmtree(target)
        self.data.mkdir(parents=True, exist_ok=True)
        log(f"generating {name}")
        seconds, _, status = vivace_jar([*args[:2], *args[2:], str(target)], VIVACE_OPTIONS,
                                        self.env, self.data / f"{name}.log")
        if status != 0:
            raise SystemExit(f"generating {name} failed; see {self.data / (name + '.log')}")
        size = sum(p.stat().st_size for p in target.glob("part-*"))
        if expected_bytes is not None and size < expected_bytes * 0.9:
            raise SystemExit(f"{name}: generated {size} bytes, asked for {expected_bytes}")
        marker.write_text(json.dumps({"args": args, "bytes": size}))
        log(f"generated {name}: {size / 1e6:.1f} MB in {seconds:.1f} s")
        return target

    # ---- workloads -------------------------------------------------------------------------

    def workloads(self) -> list[Workload]:
        """The chosen workloads; those with a shuffle once per codec of --codecs."""
        result = []
        for workload in self.base_workloads():
            if workload.name not in SHUFFLING:
                result.append(workload)
                continue
            for codec in self.options.codecs.split(","):
                if codec == "none":
                    result.append(workload)
                    continue
                # outputs are shared: every codec's output must equal the uncompressed one's
                result.append(Workload(
                    f"{workload.name}+{codec}", workload.size, workload.args, workload.validate,
                    workload.outputs, workload.system_args, workload.report, workload.metrics,
                    workload.options + ["-D", "mapreduce.map.output.compress=true",
                                        "-D", f"mapreduce.map.output.compress.codec={CODECS[codec]}"],
                    workload.input_bytes, workload.systems))
        return result

    def base_workloads(self) -> list[Workload]:
        maps, rows, text_bytes, sort_bytes = self.scales[self.options.scale]
        sizes = self.options.size
        maps = sizes.get("sleep", maps)
        rows = sizes["terasort"] // 100 if "terasort" in sizes else rows
        text_bytes = sizes.get("wordcount", text_bytes)
        sort_bytes = sizes.get("sort", sort_bytes)
        chosen = set(self.options.workloads.split(","))
        result = []
        if "sleep" in chosen:
            result.append(Workload("sleep", f"{maps} maps x 1 ms", [
                str(WORKLOADS_JAR), SLEEP_JOB, "-m", str(maps), "-r", "1", "-mt", "1", "-rt", "1"]))
        if "terasort" in chosen:
            tera = self.generate(f"teragen-{rows}", [self.examples, "teragen",
                                                     "-D", "mapreduce.job.maps=4", str(rows)],
                                 rows * 100)
            result.append(Workload("terasort", f"{rows * 100 / 1e9:.2f} GB",
                                   [self.examples, "terasort", str(tera), "{out}"],
                                   validate=self.teravalidate))
        if "wordcount" in chosen:
            text = self.generate(f"text-{text_bytes}", [
                self.examples, "randomtextwriter", "-D", f"mapreduce.randomtextwriter.totalbytes={text_bytes}",
                "-D", f"mapreduce.randomtextwriter.bytespermap={max(text_bytes // 8, 1 << 20)}",
                "-outFormat", "org.apache.hadoop.mapreduce.lib.output.TextOutputFormat"], text_bytes)
            result.append(Workload("wordcount", f"{text_bytes / 1e9:.2f} GB",
                                   [self.examples, "wordcount", str(text), "{out}"],
                                   validate=self.same_output))
        if "cold-start" in chosen:
            result.append(Workload("cold-start", "1 empty job, JVM start included",
                                   [str(WORKLOADS_JAR), EMPTY_JOB]))
        if "latency" in chosen:
            result.append(self.latency_workload())
        if "sort" in chosen:
            seq = self.generate(f"random-{sort_bytes}", [
                self.examples, "randomwriter", "-D", f"mapreduce.randomwriter.totalbytes={sort_bytes}",
                "-D", f"mapreduce.randomwriter.bytespermap={max(sort_bytes // 8, 1 << 20)}"], sort_bytes)
            result.append(Workload("sort", f"{sort_bytes / 1e9:.2f} GB",
                                   [self.examples, "sort", "-r", "2", str(seq), "{out}"]))
        if "plasma-sort" in chosen:
            result.append(self.plasma_sort())
        if "kmeans" in chosen:
            profile = KMEANS_PROFILES[self.options.scale]
            points = self.generate(f"kmeans-{profile}", [str(WORKLOADS_JAR), KMEANS + "KMeansGen",
                                                          "-profile", profile, "-maps", "4"])
            result.append(Workload("kmeans", f"HiBench {profile}, 5 iterations",
                                   [str(WORKLOADS_JAR), KMEANS + "KMeans", "-k", "10", "-iterations",
                                    "5", "-converge-dist", "0", str(points), "{out}"]))
        if "pagerank" in chosen:
            pages = PAGERANK_PAGES[self.options.scale]
            graph = self.generate(f"pagerank-{pages}", [str(WORKLOADS_JAR), PAGERANK + "PageRankGen",
                                                        "-maps", "4", str(pages)])
            result.append(Workload("pagerank", f"{pages} pages, 3 iterations",
                                   [str(WORKLOADS_JAR), PAGERANK + "PageRank", "-pages", str(pages),
                                    "-iterations", "3", str(graph), "{out}"]))
        if "finra-query" in chosen or "finra-concurrency" in chosen:
            result.extend(self.finra(chosen))
        return result

    def latency_workload(self) -> Workload:
        warmup, runs, sleep_maps = LATENCY_SCALES[self.options.scale]
        maps = "/".join(str(sleep_maps[s.engine]) for s in self.systems) + " maps"
        return Workload(
            "latency", f"{runs} empty jobs, {maps}",
            [str(WORKLOADS_JAR), LATENCY_BENCH, "-warmup", str(warmup), "-runs", str(runs),
             "-json", "{run}/latency.json"],
            system_args={s.name: ["-m", str(sleep_maps[s.engine])] for s in self.systems},
            report="latency.json",
            metrics=[Metric("empty-job latency", ("empty_job", "median_ms"), "ms", False,
                            f"ms, median of {runs}"),
                     Metric("tasks/s (-mt 0)", ("sleep_job", "tasks_per_s"), "tasks/s", True,
                            maps)])

    def finra(self, chosen: set[str]) -> list[Workload]:
        """The FINRA query alone, and the concurrency runner (5 streams x 2 queries, 10% think)."""
        size = FINRA_BYTES[self.options.scale]
        rows = self.generate(f"finra-{size}", [str(WORKLOADS_JAR), FINRA + "FinraGen", "-maps", "4",
                                               str(size)], size)
        label = f"{size / 1e9:.2f} GB"
        result = []
        if "finra-query" in chosen:
            result.append(Workload("finra-query", label,
                                   [str(WORKLOADS_JAR), FINRA + "FinraQuery", str(rows), "{out}"],
                                   validate=self.same_output))
        if "finra-concurrency" in chosen:
            streams = f"{label}, 5 streams x 2"
            result.append(Workload(
                "finra-concurrency", streams,
                [str(WORKLOADS_JAR), FINRA + "FinraConcurrency", "-streams", "5", "-queries", "2",
                 "-think-pct", "10", "-json", "{run}/finra.json", str(rows), "{out}"],
                report="finra.json",
                metrics=[Metric("finra isolated", ("isolated_s",), "s", False, streams),
                         Metric("finra concurrent", ("concurrent_mean_s",), "s", False, streams),
                         Metric("finra conc/isol", ("ratio",), "ratio", False, streams)]))
        return result

    def plasma_sort(self) -> Workload:
        """Plasma's sort into 80 partitions; wall time and CPU seconds per GB, both systems."""
        size = PLASMA_BYTES[self.options.scale]
        lines = self.generate(f"plasma-{size}", [str(WORKLOADS_JAR), PLASMA + "PlasmaGen",
                                                 "-maps", "4", str(size)], size)
        label = f"{size / 1e9:.2f} GB, 80 parts"
        return Workload(
            "plasma-sort", label,
            [str(WORKLOADS_JAR), PLASMA + "PlasmaSort", "-r", "80", str(lines), "{out}"],
            validate=lambda workload, system, out: self.plasma_validate(workload, system, lines, out),
            input_bytes=size,
            metrics=[Metric("plasma-sort wall", ("wall_s",), "s", False, label),
                     Metric("plasma-sort CPU", ("cpu_s_per_gb",), "CPU s/GB", False, label)])

    def plasma_validate(self, workload: Workload, system: str, lines: Path, out: Path) -> str:
        _, _, status = vivace_jar([str(WORKLOADS_JAR), PLASMA + "PlasmaValidate", str(lines), str(out)],
                                  VIVACE_OPTIONS, self.env, out.parent / (out.name + "-validate.log"))
        if status != 0:
            return f"plasmavalidate failed, see {out.parent / (out.name + '-validate.log')}"
        return self.same_output(workload, system, out)

    def teravalidate(self, workload: Workload, system: str, out: Path) -> str:
        report = out.parent / (out.name + "-validate")
        _, _, status = vivace_jar([self.examples, "teravalidate", str(out), str(report)],
                                  VIVACE_OPTIONS, self.env, out.parent / (out.name + "-validate.log"))
        text = "".join(p.read_text() for p in report.glob("part-*")) if status == 0 else ""
        shutil.rmtree(report, ignore_errors=True)
        if status != 0 or "error" in text or "checksum" not in text:
            return "teravalidate failed"
        return self.same_output(workload, system, out)

    def same_output(self, workload: Workload, system: str, out: Path) -> str:
        digest = directory_digest(out)
        workload.outputs[system] = digest
        if len(set(workload.outputs.values())) > 1:
            return "outputs differ between systems"
        return ""

    # ---- running -----------------------------------------------------------------------------

    def output_location(self, run_dir: Path) -> str:
        """Where a run's job writes its output ({out})."""
        return str(run_dir / "out")

    def fetch_output(self, location: str, run_dir: Path) -> Path:
        """The output at `location` as a local folder, to validate."""
        return Path(location)

    def counter_names(self, workload: Workload) -> tuple[str, ...]:
        """The counters a run of `workload` keeps from its log."""
        return SHUFFLE_COUNTERS if workload.name.split("+")[0] in SHUFFLING else ()

    def run_once(self, workload: Workload, system: System, repeat: int) -> Run:
        run_dir = self.runs_dir / f"{workload.name}-{system.name}-{repeat}"
        shutil.rmtree(run_dir, ignore_errors=True)
        run_dir.mkdir(parents=True)
        out = self.output_location(run_dir)
        args = [a.replace("{out}", out).replace("{run}", str(run_dir))
                for a in workload.args + workload.system_args.get(system.name, [])]
        extra = ["-D", f"hadoop.tmp.dir={run_dir / 'tmp'}"]
        seconds, rss, status, cpu = vivace_jar_cpu(args, system.options + workload.options + extra,
                                                   {**self.env, **dict(system.env)}, run_dir / "job.log",
                                                   system.launcher)
        detail = "" if status == 0 else f"exit {status}, see {run_dir / 'job.log'}"
        if status == 0 and workload.validate is not None and repeat == 0:
            detail = workload.validate(workload, system.name, self.fetch_output(out, run_dir))
        metrics = {}
        if status == 0 and workload.report is not None:
            try:
                metrics = json.loads((run_dir / workload.report).read_text())
            except (OSError, ValueError) as e:
                detail = f"no report {workload.report}: {e}"
        if workload.input_bytes:
            metrics = {"wall_s": seconds, "cpu_s_per_gb": cpu / (workload.input_bytes / 1e9)}
        counters = logged_counters(run_dir / "job.log", self.counter_names(workload))
        run = Run(workload.name, workload.size, system.name, repeat, seconds, rss, not detail, detail,
                  metrics, counters, cpu)
        log(f"  {workload.name:10} {system.name:14} #{repeat}: {seconds:8.2f} s  {rss:8.0f} MB  {cpu:7.2f} CPU s"
            + "".join(f"  {m.label} {metric_value(run, m):.2f} {m.unit}"
                      for m in workload.metrics if run.ok)
            + (f"  FAILED: {detail}" if detail else ""))
        if not self.options.keep:
            shutil.rmtree(run_dir, ignore_errors=True)
        return run

    def run(self) -> None:
        for workload in self.workloads():
            self.metrics[workload.name] = workload.metrics
            log(f"{workload.name} ({workload.size}), {self.options.repeats} repeats"
                + (f" on {','.join(workload.systems)}" if workload.systems else ", alternating"))
            for repeat in range(self.options.repeats):
                order = self.systems if repeat % 2 == 0 else list(reversed(self.systems))
                for system in order:
                    if workload.systems and system.name not in workload.systems:
                        continue
                    self.runs.append(self.run_once(workload, system, repeat))

    # ---- report ------------------------------------------------------------------------------

    def table(self) -> list[dict]:
        rows = []
        for name in dict.fromkeys(r.workload for r in self.runs):
            runs = [r for r in self.runs if r.workload == name]
            if self.metrics.get(name):
                rows.extend(self.metric_row(metric, runs) for metric in self.metrics[name])
                continue
            row = {"workload": name, "size": runs[0].size}
            for system in self.system_names():
                mine = [r for r in runs if r.system == system and r.ok]
                row[system] = {
                    "median_s": statistics.median(r.seconds for r in mine) if mine else None,
                    "min_s": min((r.seconds for r in mine), default=None),
                    "max_s": max((r.seconds for r in mine), default=None),
                    "peak_rss_mb": max((r.peak_rss_mb for r in mine), default=None),
                    "failed": sum(1 for r in runs if r.system == system and not r.ok),
                }
            current, other = (row[s]["median_s"] for s in self.system_names())
            row["speedup"] = other / current if current and other else None
            rows.append(row)
        return rows

    def metric_row(self, metric: Metric, runs: list[Run]) -> dict:
        """A table row for one number of a workload's report: median over repeats, per system."""
        current_column, other_column = (s.column for s in self.systems)
        row = {"workload": metric.label, "size": metric.size, "unit": metric.unit,
               "ratio": (f"{current_column}/{other_column}" if metric.higher_is_better
                         else f"{other_column}/{current_column}")}
        for system in self.system_names():
            mine = [r for r in runs if r.system == system and r.ok]
            values = [metric_value(r, metric) for r in mine]
            row[system] = {
                "median": statistics.median(values) if values else None,
                "min": min(values, default=None),
                "max": max(values, default=None),
                "peak_rss_mb": max((r.peak_rss_mb for r in mine), default=None),
                "failed": sum(1 for r in runs if r.system == system and not r.ok),
            }
        current, other = (row[s]["median"] for s in self.system_names())
        row["speedup"] = ((current / other if metric.higher_is_better else other / current)
                          if current and other else None)
        return row

    def system_names(self) -> list[str]:
        return [s.name for s in self.systems]

    def print_table(self, rows: list[dict]) -> None:
        headings = [f"{s.column} (min..max)" for s in self.systems]
        width = max(24, *(len(h) for h in headings))
        header = (f"{'workload':17} {'size':18} "
                  + " ".join(f"{h:{width}} {'RSS MB':>7}" for h in headings) + f" {'speedup':>8}")
        print(header)
        print("-" * len(header))
        for row in rows:
            digits = 0 if row.get("unit") == "tasks/s" else 2
            cells = []
            for system in self.system_names():
                s = row[system]
                median, low, high = (s["median"], s["min"], s["max"]) if "unit" in row else (
                    s["median_s"], s["min_s"], s["max_s"])
                if median is None:
                    cells.append(f"{'failed':{width}} {'':>7}")
                else:
                    spread = f"{median:.{digits}f} ({low:.{digits}f}..{high:.{digits}f})"
                    cells.append(f"{spread:{width}} {s['peak_rss_mb']:7.0f}")
            ratio = f"{row['speedup']:.2f}x" if row["speedup"] else "-"
            print(f"{row['workload']:17} {row['size']:18} {cells[0]} {cells[1]} {ratio:>8}")
        current, other = (s.column for s in self.systems)
        faster = "this checkout's build" if self.systems[1].name.startswith("vivace@") else "Vivace"
        print("Times in seconds (JVM start included) unless the size column names another unit;"
              f" tasks/s is a rate.\nspeedup: {other}/{current} for times, {current}/{other} for rates;"
              f" above 1x, {faster} is faster.")

    def print_shuffle_bytes(self) -> None:
        """Map output bytes before and after compression, per shuffling workload and system."""
        names = [n for n in dict.fromkeys(r.workload for r in self.runs) if n.split("+")[0] in SHUFFLING]
        if not any("+" in n for n in names):
            return
        print(f"\n{'workload':17} {'system':13} {'map output MB':>14} {'materialized MB':>16} "
              f"{'ratio':>6} {'FILE written MB':>16}")
        for name in names:
            for system in self.system_names():
                mine = [r for r in self.runs if r.workload == name and r.system == system and r.ok
                        and "Map output materialized bytes" in r.counters]
                if not mine:
                    continue
                c = mine[0].counters
                raw, stored = c.get("Map output bytes", 0), c["Map output materialized bytes"]
                ratio = f"{stored / raw:.2f}" if raw else "-"
                written = c.get("FILE: Number of bytes written", 0)
                print(f"{name:17} {system:13} {raw / 1e6:14.1f} {stored / 1e6:16.1f} {ratio:>6} "
                      f"{written / 1e6:16.1f}")
        print("materialized: map output as stored for the shuffle (compressed bytes with a codec);"
              " FILE written: local file system bytes (spills, merges, job output).")

    def write_json(self, rows: list[dict], extra: dict | None = None) -> Path:
        results = self.work / "results"
        results.mkdir(parents=True, exist_ok=True)
        path = results / f"bench-{dt.datetime.now().strftime('%Y%m%d-%H%M%S')}.json"
        path.write_text(json.dumps({
            "machine": {"cpus": os.cpu_count(), "platform": platform.platform()},
            "load_average": {"start": self.load_at_start, "end": os.getloadavg()},
            "systems": [{"name": s.name, "launcher": str(s.launcher), "commit": self.commits[s.name]}
                        for s in self.systems],
            "options": vars(self.options),
            "summary": rows,
            "runs": [r.__dict__ for r in self.runs],
            **(extra or {}),
        }, indent=2))
        return path


def git(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, stdin=subprocess.DEVNULL)


def git_describe(checkout: Path) -> str:
    """The commit a checkout is at, "-dirty" when it has changes; "" outside git."""
    if not checkout.is_dir():
        return ""
    described = git("describe", "--always", "--dirty", "--abbrev=12", cwd=checkout)
    return described.stdout.strip() if described.returncode == 0 else ""


class BaselineBuild:
    """Another revision of this repository, checked out in a git worktree of its own under the work
    directory and built there (`mvn -B -q -DskipTests package`); its jobs run through its own
    `vivace` launcher, as that revision ships, class data sharing archive included."""

    def __init__(self, ref: str, work: Path):
        commit = git("rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")
        if commit.returncode != 0:
            raise ValueError(f"--baseline {ref}: not a commit of the repository at {ROOT}")
        self.ref = ref
        self.commit = commit.stdout.strip()
        self.short = git("rev-parse", "--short", self.commit).stdout.strip()
        self.checkout = work / f"baseline-{self.short}"
        self.log_file = work / f"baseline-{self.short}-build.log"

    def system(self) -> System:
        label = f"vivace@{self.short}"
        return System(label, label, self.checkout / "vivace", VIVACE_OPTIONS, "vivace")

    def prepare(self) -> None:
        """Checks the revision out (or reuses a checkout of it that --keep left) and builds it."""
        if self.checkout.exists():
            at = git("rev-parse", "HEAD", cwd=self.checkout).stdout.strip()
            if at != self.commit or git_describe(self.checkout).endswith("-dirty"):
                raise SystemExit(f"{self.checkout} exists but is not a clean checkout of {self.commit};"
                                 f" remove it (git worktree remove --force {self.checkout})")
            log(f"baseline {self.ref}: reusing {self.checkout}")
        else:
            self.checkout.parent.mkdir(parents=True, exist_ok=True)
            added = git("worktree", "add", "--detach", str(self.checkout), self.commit)
            if added.returncode != 0:
                raise SystemExit(f"git worktree add {self.checkout} {self.commit} failed:\n{added.stderr.strip()}")
            log(f"baseline {self.ref}: checked out {self.commit} in {self.checkout}")
        log(f"baseline {self.ref}: building (mvn -B -q -DskipTests package; log {self.log_file})")
        with open(self.log_file, "wb") as out:
            built = subprocess.run(["mvn", "-B", "-q", "-DskipTests", "package"], cwd=self.checkout,
                                   stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        if built.returncode != 0:
            raise SystemExit(f"building {self.ref} ({self.commit}) in {self.checkout} failed; see {self.log_file}")
        # its launcher agrees that the build is current (else it would build again, timed)
        with open(self.log_file, "ab") as out:
            listed = subprocess.run([str(self.checkout / "vivace"), "classpath"], stdout=subprocess.DEVNULL,
                                    stderr=out, stdin=subprocess.DEVNULL)
        if listed.returncode != 0:
            raise SystemExit(f"`{self.checkout / 'vivace'} classpath` failed; see {self.log_file}")

    def remove(self) -> None:
        removed = git("worktree", "remove", "--force", str(self.checkout))
        if removed.returncode != 0:
            shutil.rmtree(self.checkout, ignore_errors=True)
            git("worktree", "prune")
        log(f"baseline {self.ref}: removed {self.checkout}")


# --size: workloads whose input size can be set alone (terasort's in bytes, 100 per row; sleep's
# in maps).
SIZED = ("terasort", "wordcount", "sort", "sleep")


def parse_sizes(specs: list[str]) -> dict[str, int]:
    """`--size` values ("wordcount=1g") as workload -> bytes."""
    sizes = {}
    for spec in specs:
        name, sep, value = spec.partition("=")
        if not sep or name not in SIZED:
            raise ValueError(f"--size {spec}: expected WORKLOAD=SIZE with WORKLOAD one of {', '.join(SIZED)}")
        number = value.lower().rstrip("b")
        unit = 1 << {"k": 10, "m": 20, "g": 30}.get(number[-1:], 0)
        number = number[:-1] if number[-1:] in "kmg" else number
        try:
            sizes[name] = int(float(number) * unit)
        except ValueError:
            raise ValueError(f"--size {spec}: {value!r} is not a size (bytes, or with k, m, g)") from None
        if sizes[name] <= 0:
            raise ValueError(f"--size {spec}: the size must be positive")
    return sizes


def driver_catalogue() -> dict[str, dict]:
    """The driver's workloads by name, as `./vivace driver --list-workloads` prints them (the
    first call in a fresh checkout builds it)."""
    listed = subprocess.run([str(VIVACE), "driver", "--list-workloads"], capture_output=True, text=True,
                            stdin=subprocess.DEVNULL)
    if listed.returncode != 0:
        raise SystemExit(f"`{VIVACE} driver --list-workloads` failed:\n{listed.stderr.strip()}")
    return {w["name"]: w for w in json.loads(listed.stdout)["workloads"]}


def check_workloads(chosen: list[str], catalogue: dict[str, dict]) -> str | None:
    """None when bench/run can run every chosen workload; else what is wrong with the first."""
    stale = [name for name in CATALOGUE_RUNS if name not in catalogue]
    if stale:
        return (f"bench/run runs {', '.join(stale)}, which the driver's catalogue does not list"
                f" (`./vivace driver --list-workloads`): update CATALOGUE_RUNS in {Path(__file__).name}")
    runnable = [*CATALOGUE_RUNS, *OWN_WORKLOADS]
    for name in chosen:
        if name in runnable:
            continue
        if name in catalogue:
            return (f"--workloads {name}: a workload of the driver's catalogue that bench/run does not run;"
                    f" `./vivace lab run` runs every one (a study listing it under workloads:)")
        close = difflib.get_close_matches(name, [*runnable, *catalogue], n=1)
        hint = f" (did you mean {close[0]}?)" if close else ""
        return f"--workloads {name}: unknown workload{hint}; bench/run runs {','.join(runnable)}"
    return None


def print_workload_list(catalogue: dict[str, dict]) -> None:
    for name, workload in catalogue.items():
        runs = "runs" if name in CATALOGUE_RUNS else "lab only"
        print(f"{name:18} {runs:9} {workload['description']}")
    for name, description in OWN_WORKLOADS.items():
        print(f"{name:18} {'bench':9} {description}")
    print("runs: bench/run runs it with its own sizes (--scale); lab only: `./vivace lab run` runs it;"
          " bench: bench/run's own measurement, not a driver workload.")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", choices=SCALES, default="default",
                        help="input sizes (default: %(default)s; tiny is a smoke test)")
    parser.add_argument("--workloads", default=None,
                        help="comma-separated: workloads of the driver's catalogue that bench/run runs"
                             f" ({','.join(CATALOGUE_RUNS)}) and its own {','.join(OWN_WORKLOADS)};"
                             f" `--list` says what each is (default: {DEFAULT_WORKLOADS}). Not in the catalogue's"
                             " words: plasma-sort reports wall time and CPU seconds per GB into 80"
                             " partitions; finra-concurrency 5 streams x 2 queries with 10%% think time;"
                             " kmeans 5 iterations on HiBench's tiny/small/large profile; pagerank 3"
                             " iterations on 5,000/500,000/5,000,000 pages")
    parser.add_argument("--list", action="store_true",
                        help="list the driver's workloads (which bench/run runs) and bench's own, and exit")
    parser.add_argument("--codecs", default="none",
                        help="map output compression for terasort, wordcount and sort: comma-separated"
                             f" subset of {','.join(CODECS)}, each a run of its own on both systems"
                             " (default: %(default)s, uncompressed)")
    parser.add_argument("--size", action="append", default=[], metavar="WORKLOAD=SIZE",
                        help="input size of one workload instead of the scale's, e.g. wordcount=1g"
                             f" (workloads: {', '.join(SIZED)}; sizes in bytes or with k, m, g; sleep's in maps);"
                             " repeatable")
    parser.add_argument("--repeats", type=int, default=3, help="runs per system (median reported)")
    parser.add_argument("--heap", default="2g", help="maximum heap of every run, both systems")
    parser.add_argument("--work-dir", default=str(ROOT / "bench" / "work"),
                        help="inputs, runs and results JSON (default: bench/work)")
    parser.add_argument("--baseline", metavar="REF",
                        help="compare with Vivace at git revision REF of this repository (a commit,"
                             " branch or tag) instead of Apache's LocalJobRunner: REF is checked out"
                             " in a git worktree under the work directory, built there and run by its"
                             " own launcher, as vivace@<commit>")
    parser.add_argument("--keep", action="store_true",
                        help="keep each run's output and log, and the --baseline worktree (reused by"
                             " the next run with the same REF)")
    parser.add_argument("--cluster", type=int, metavar="N",
                        help="on a YARN + HDFS mini-cluster of N NodeManagers and N DataNodes: a warm"
                             " Vivace session (vivace-yarn) against MapReduce on YARN; workloads"
                             " latency,sleep,terasort,wordcount,executor-loss, smaller sizes"
                             " (docs/bench.md)")
    options = parser.parse_args(argv)
    catalogue = driver_catalogue()
    if options.list:
        print_workload_list(catalogue)
        return 0
    if options.cluster is not None:
        import vivace_cluster
        options.workloads = options.workloads or ",".join(vivace_cluster.CLUSTER_WORKLOADS)
        problem = vivace_cluster.check_workloads(options.workloads.split(","))
        if options.cluster < 1:
            problem = f"--cluster {options.cluster}: at least one NodeManager"
        elif options.baseline or options.codecs != "none":
            problem = "--cluster runs without --baseline and --codecs"
    else:
        options.workloads = options.workloads or DEFAULT_WORKLOADS
        problem = check_workloads(options.workloads.split(","), catalogue)
    if problem:
        parser.error(problem)
    try:
        options.size = parse_sizes(options.size)
    except ValueError as e:
        parser.error(str(e))
    unknown = [c for c in options.codecs.split(",") if c not in CODECS]
    if unknown:
        parser.error(f"unknown codec(s) {','.join(unknown)}; choose from {','.join(CODECS)}")
    baseline = None
    if options.baseline:
        if os.environ.get("VIVACE_CLASSPATH"):
            parser.error("--baseline: unset VIVACE_CLASSPATH; each build runs with its own class path")
        try:
            baseline = BaselineBuild(options.baseline, Path(options.work_dir).resolve())
        except ValueError as e:
            parser.error(str(e))
    subprocess.run([str(VIVACE), "classpath"], check=True, stdout=subprocess.DEVNULL)
    if not WORKLOADS_JAR.exists():
        raise SystemExit(f"{WORKLOADS_JAR} missing: build with `mvn -DskipTests package`")
    if options.cluster is not None:
        return vivace_cluster.run(options)
    try:
        if baseline is not None:
            baseline.prepare()
        bench = Bench(options, baseline.system() if baseline else HADOOP_LOCAL)
        bench.work.mkdir(parents=True, exist_ok=True)
        # untimed: the first job after a build makes the launcher's class data archive (see ../vivace)
        for system in {s.launcher: s for s in bench.systems}.values():
            vivace_jar([str(WORKLOADS_JAR), EMPTY_JOB], VIVACE_OPTIONS, bench.env,
                       bench.work / f"first-job-{system.name}.log", system.launcher)
        bench.run()
    finally:
        if baseline is not None and not options.keep:
            baseline.remove()
    return report(bench, bench.table())


def report(bench: Bench, rows: list[dict], extra: dict | None = None, after_table=lambda: None) -> int:
    """Prints the table (then `after_table`'s lines), writes the results JSON; the exit status."""
    bench.print_table(rows)
    after_table()
    bench.print_shuffle_bytes()
    path = bench.write_json(rows, extra)
    start, end = bench.load_at_start[0], os.getloadavg()[0]
    print(f"\nload average (1 min): {start:.2f} at the start, {end:.2f} at the end")
    print(f"results: {path}")
    return 0 if all(r.ok for r in bench.runs) else 1


if __name__ == "__main__":
    sys.modules.setdefault("vivace_bench", sys.modules[__name__])  # one module for vivace_cluster's import
    sys.exit(main())
