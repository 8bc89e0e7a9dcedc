"""`vivace lab swim`: a SWIM trace replay as a generated study spec, run like any study.

Defaults fit one machine: the first 20 jobs of FB-2010 (9 s to 90 s of trace time) at the trace's
pace, sizes scaled by SWIM's integer rule to 1 of the traced cluster's 3000 machines, 4 MiB
partitions, on vivace, hadoop-local and hadoop-yarn, once each. ``--cluster [N]`` replays on the
engines of the shared mini-cluster (hadoop-yarn, hadoop-tez, vivace-yarn) with N NodeManagers and N
DataNodes (3), as STAC compared two engines on one cluster, and by default the whole trace
(``CLUSTER_DEFAULTS``): Vivace's session every job, the others (MapReduce on YARN takes ~25 s a job)
a systematic sample, every ``--peer-sample``-th trace job, at the same trace times.

The replay is stored as one run per ``--segment`` seconds of trace time (FB-2010's one-hour
samples), each an entry of the study's queue: an interrupted replay resumes at the first segment
not stored, a driver holds one segment's jobs, and the queue takes the engines segment by segment
(drift on a shared machine hits them alike). Within a segment jobs keep the trace's gaps; each
segment starts when the one before has drained.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
from pathlib import Path

from vivace_lab import paths
from vivace_lab.engines.cluster_shape import ClusterShape
from vivace_lab.engines.names import CLUSTER_ENGINES
from vivace_lab.workloads.params import parse_size

TRACES_URL = "https://github.com/SWIMProjectUCB/SWIM, folder workloadSuite"
DEFAULT_TRACE = "FB-2010_samples_24_times_1hr_0.tsv"
TRACES_ENV = "VIVACE_SWIM_DATA"
DEFAULT_JOBS = 20
DEFAULT_ENGINES = "vivace,hadoop-local,hadoop-yarn"
# The mini-cluster for a replay: the open-loop jobs run side by side, as on STAC's 17 nodes, instead
# of one ApplicationMaster at a time. 512 MB AM and task containers (heap 409 MB: ample for SWIM's
# jobs of at most a few input partitions); half of each 4 GB NodeManager for AMs admits 4 jobs at
# once per NodeManager and leaves 4 containers for their tasks. Vcores are not scheduled (memory
# only), 8 is a label.
SWIM_CLUSTER = ClusterShape(nm_memory_mb=4096, nm_vcores=8, container_mb=512, max_am_percent=0.5)
_NODES = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*$")
DEFAULT_SEGMENT_S = 3600  # FB-2010 and FB-2009 are 24 samples of one hour each
DEFAULT_CLUSTER_NODES = 3
# The whole-trace replay on the cluster. At SWIM's 1/3000 FB-2010 reads 446 GB (98 GB of it the
# one-partition clamp of 24,442 jobs) and shuffles 146 GB: days on 2 cores. At 1e-5 with 1 MiB
# partitions it reads 31 GB (the largest job 132 partitions), shuffles 4.4 GB and writes 3.4 GB:
# the jobs stay small, as most of the trace's are, and the control plane is what is timed. Gaps
# compressed 4x: the session kept up with FB-2010's first hour so on this 2-core machine (1.1 jobs/s,
# p50 0.68 s), where 24x (6.5 jobs/s) queued every job for 20-75 s; the whole trace takes 6 hours
# an engine. MapReduce on YARN and Tez replay every 100th job (245 of 24,442) at the same times.
CLUSTER_DEFAULTS = {"jobs": 0, "scale": "1e-5", "block_size": "1MiB", "pool_partitions": 160,
                    "gap_compression": 4.0, "peer_sample": 100}
LOCAL_DEFAULTS = {"jobs": DEFAULT_JOBS, "scale": "1/3000", "block_size": "4MiB", "pool_partitions": 64,
                  "gap_compression": 1.0, "peer_sample": 1}


class SwimOptionError(ValueError):
    """An option of `vivace lab swim` that cannot be used; the message says why."""


def traces_dir() -> Path:
    """$VIVACE_SWIM_DATA, else the project's shared traces beside the checkout."""
    configured = os.environ.get(TRACES_ENV)
    return Path(configured) if configured else paths.vivace_home().parent / "shared" / "data" / "swim"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    def default(key: str) -> str:
        return f"{LOCAL_DEFAULTS[key]}; with --cluster {CLUSTER_DEFAULTS[key]}"

    parser.add_argument("--trace", default=None,
                        help=f"SWIM trace file (default: {DEFAULT_TRACE} in ${TRACES_ENV} or ../shared/data/swim)")
    parser.add_argument("--synthetic", type=int, default=None, metavar="JOBS",
                        help="replay a synthetic trace of this many jobs (seeded) instead of a real one")
    parser.add_argument("--first", type=int, default=0, help="trace position of the first job (default 0)")
    parser.add_argument("--jobs", type=_job_count, default=None, metavar="N|all",
                        help=f"at most this many jobs, or all (default {DEFAULT_JOBS}, or no limit with "
                             f"--window; with --cluster all)")
    parser.add_argument("--window", type=int, default=0, metavar="S",
                        help="only jobs within S seconds of trace time (STAC: 1200, 302 jobs)")
    parser.add_argument("--scale", default=None,
                        help="N/M: SWIM's integer scale, N machines replaying a trace of M; or a factor such "
                             f"as 1e-5 (default {default('scale')})")
    parser.add_argument("--gap-compression", type=float, default=None,
                        help=f"divide the trace's gaps by this (default {default('gap_compression')}; "
                             f"1: the trace's pace)")
    parser.add_argument("--peer-sample", type=int, default=None, metavar="K",
                        help="engines other than Vivace's replay only the trace jobs whose position is a "
                             f"multiple of K, at their trace times (default {default('peer_sample')})")
    parser.add_argument("--segment", type=int, default=DEFAULT_SEGMENT_S, metavar="S",
                        help=f"store the replay as one run per S seconds of trace time, the unit of resuming "
                             f"(default {DEFAULT_SEGMENT_S}: FB-2010's one-hour samples; 0: one run)")
    parser.add_argument("--cluster", type=int, nargs="?", const=DEFAULT_CLUSTER_NODES, default=None, metavar="N",
                        help=f"replay on the engines of one shared mini-cluster of N NodeManagers and N "
                             f"DataNodes (N default {DEFAULT_CLUSTER_NODES}; engines then: "
                             f"{','.join(CLUSTER_ENGINES)}), by default the whole trace")
    parser.add_argument("--engines", default=None,
                        help=f"comma-separated (default {DEFAULT_ENGINES}, or the cluster engines with --cluster)")
    parser.add_argument("--seed", type=int, default=1, help="seed of every random choice (default 1)")
    parser.add_argument("--repeats", type=int, default=1, help="replays per engine (default 1; STAC: 3)")
    parser.add_argument("--block-size", default=None,
                        help=f"bytes of one input partition (default {default('block_size')})")
    parser.add_argument("--pool-partitions", type=int, default=None,
                        help=f"input partitions in the pool (default {default('pool_partitions')})")
    parser.add_argument("--bytes-per-reduce", default="64MiB", help="shuffle + output per reducer (default 64MiB)")
    parser.add_argument("--restart", action="store_true", help="forget this replay's earlier runs and start over")
    parser.add_argument("--heap", default="2g", help="heap of JVMs that run tasks in-process (default 2g)")
    parser.add_argument("--report", default=None, help="HTML report path (default: <lab home>/reports/<study>.html)")


def _job_count(text: str) -> int:
    if text.strip().lower() == "all":
        return 0
    try:
        count = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is neither a number of jobs nor 'all'") from None
    if count < 0:
        raise argparse.ArgumentTypeError(f"{count} jobs: give at least 0 (0 and 'all': no limit)")
    return count


def option(args: argparse.Namespace, key: str):
    """An option's value: as given, else its default on a cluster or on one machine."""
    given = getattr(args, key)
    if given is not None:
        return given
    return (CLUSTER_DEFAULTS if args.cluster is not None else LOCAL_DEFAULTS)[key]


def swim_params(args: argparse.Namespace, trace: Path) -> dict[str, object]:
    """The swim workload's parameters for these options (the whole selection, one run)."""
    jobs = args.jobs if args.jobs is not None else (0 if args.window else option(args, "jobs"))
    params: dict[str, object] = {"trace": str(trace), "first_job": args.first, "jobs": jobs,
                                 "window_s": args.window}
    scale = option(args, "scale")
    nodes = _NODES.match(scale)
    if nodes:
        params.update(cluster_nodes=int(nodes.group(1)), trace_nodes=int(nodes.group(2)), scale_factor=0)
    else:
        try:
            factor = float(scale)
        except ValueError:
            raise SwimOptionError(f"--scale '{scale}' is neither N/M (machines) nor a number") from None
        if not factor > 0:
            raise SwimOptionError(f"--scale {scale} must be greater than 0")
        params["scale_factor"] = factor
    gap_compression = option(args, "gap_compression")
    if not gap_compression > 0:
        raise SwimOptionError(f"--gap-compression {gap_compression} must be greater than 0")
    try:
        params.update(gap_compression=gap_compression, bytes_per_reduce=parse_size(args.bytes_per_reduce),
                      pool_partitions=option(args, "pool_partitions"),
                      block_size=parse_size(option(args, "block_size")), seed=args.seed)
    except ValueError as e:
        raise SwimOptionError(str(e)) from None
    return params


def is_peer(engine: str) -> bool:
    """Whether ``--peer-sample`` applies to the engine: every engine but Vivace's own."""
    return not engine.startswith("vivace")


def trace_clock(trace: Path) -> list[tuple[int, int]]:
    """Each trace job's (submit s, gap s), in trace order."""
    clock = []
    with trace.open() as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            fields = line.rstrip("\n").split("\t")
            try:
                clock.append((int(fields[1]), int(fields[2])))
            except (IndexError, ValueError):
                raise SwimOptionError(f"{trace}:{number}: not a line of a SWIM trace (name, submit s, gap s, "
                                      f"input, shuffle, output bytes, tab-separated)") from None
    return clock


def select(clock: list[tuple[int, int]], first: int, limit: int, window_s: int) -> range:
    """The trace positions the driver's selection takes (ReplayPlan.select): from ``first``, at most
    ``limit`` jobs (0: all), within ``window_s`` s (0: all) of the clock before the first job."""
    if first >= len(clock):
        raise SwimOptionError(f"--first {first}, but the trace holds {len(clock)} jobs")
    start = clock[first][0] - clock[first][1]
    end = first
    for i in range(first, len(clock)):
        if (limit > 0 and i - first >= limit) or (window_s > 0 and clock[i][0] - start >= window_s):
            break
        end = i + 1
    return range(first, end)


def segments(clock: list[tuple[int, int]], selected: range, span_s: int) -> list[range]:
    """The selection cut where the trace's clock crosses a multiple of ``span_s`` (0: uncut)."""
    if span_s <= 0 or not selected:
        return [selected] if selected else []
    out, start = [], selected.start
    for i in selected[1:]:
        if clock[i][0] // span_s != clock[i - 1][0] // span_s:
            out.append(range(start, i))
            start = i
    out.append(range(start, selected.stop))
    return out


def sampled(positions: range, every: int) -> int:
    """How many of ``positions`` are multiples of ``every``."""
    return len(range(-(-positions.start // every) * every, positions.stop, every)) if positions else 0


def workload_points(params: dict[str, object], clock: list[tuple[int, int]], engines: list[str],
                    peer_sample: int, span_s: int) -> list[tuple[list[str] | None, dict[str, object]]]:
    """The spec's swim entries: per segment one for Vivace's engines (every job) and one for the
    others (every ``peer_sample``-th job, left out where the segment has none); (engines or None
    for all, params)."""
    selected = select(clock, int(params["first_job"]), int(params["jobs"]), int(params["window_s"]))
    vivace = [e for e in engines if not is_peer(e)]
    peers = [e for e in engines if is_peer(e)]
    points = []
    for part in segments(clock, selected, span_s):
        own = {**params, "first_job": part.start, "jobs": len(part), "window_s": 0}
        if peer_sample <= 1:
            points.append((None, own))
            continue
        if vivace:
            points.append((vivace, own))
        if peers and sampled(part, peer_sample):
            points.append((peers, {**own, "sample_every": peer_sample}))
    return points


def resolve_trace(args: argparse.Namespace, studies_dir: Path) -> Path:
    """The trace to replay: --trace, a synthetic one written now, or FB-2010 where the project
    keeps it; a missing file says where the public traces are."""
    if args.synthetic is not None:
        if args.synthetic < 1:
            raise SwimOptionError("--synthetic needs at least 1 job")
        path = studies_dir / f"synthetic-{args.synthetic}-seed{args.seed}.tsv"
        write_synthetic_trace(path, args.synthetic, args.seed)
        return path
    trace = Path(args.trace) if args.trace else traces_dir() / DEFAULT_TRACE
    if not trace.is_file():
        raise SwimOptionError(f"no SWIM trace at {trace}: the public traces (FB-2009, FB-2010) are in "
                              f"{TRACES_URL}; give one with --trace FILE (or set ${TRACES_ENV} to their folder)")
    return trace.resolve()


def write_spec(args: argparse.Namespace, studies_dir: Path) -> Path:
    """Writes the study spec for these options into ``studies_dir`` and returns its path. The
    study's name carries a digest of the options, so the same command resumes its study."""
    studies_dir.mkdir(parents=True, exist_ok=True)
    trace = resolve_trace(args, studies_dir)
    params = swim_params(args, trace)
    default_engines = ",".join(CLUSTER_ENGINES) if args.cluster is not None else DEFAULT_ENGINES
    engines = [e.strip() for e in (args.engines or default_engines).split(",") if e.strip()]
    if not engines:
        raise SwimOptionError("--engines names no engine")
    if args.repeats < 1:
        raise SwimOptionError("--repeats must be at least 1")
    peer_sample = option(args, "peer_sample")
    if peer_sample < 1:
        raise SwimOptionError(f"--peer-sample {peer_sample}: must be at least 1 (1: every job)")
    if args.segment < 0:
        raise SwimOptionError(f"--segment {args.segment}: give seconds of trace time, or 0 for one run")
    cluster = swim_cluster(args.cluster)
    on_cluster = any(e in CLUSTER_ENGINES for e in engines)
    if args.cluster is not None and not on_cluster:
        raise SwimOptionError(f"--cluster shapes the mini-cluster of {', '.join(CLUSTER_ENGINES)}; "
                              f"--engines names none of them")
    points = workload_points(params, trace_clock(trace), engines, peer_sample, args.segment)
    digest_of = [points, engines, args.repeats] + ([cluster.as_dict()] if on_cluster else [])
    digest = hashlib.sha256(json.dumps(digest_of, sort_keys=True).encode()).hexdigest()[:8]
    stem = re.sub(r"[^A-Za-z0-9-]+", "-", trace.stem.split("_")[0])
    name = f"swim-{stem}-{digest}"
    lines = [
        "# Written by `vivace lab swim`; run it again with the same options to resume.",
        f"name: {name}",
        f"description: SWIM replay of {json.dumps(trace.name)}",
        f"seed: {args.seed}",
        f"repeats: {args.repeats}",
        f"engines: [{', '.join(engines)}]",
        "workloads:",
    ]
    for runs_on, point in points:
        entries = ([f"engines: [{', '.join(runs_on)}]"] if runs_on else []) + \
            [f"{k}: {json.dumps(v)}" for k, v in point.items()]
        lines.append("  - swim: {" + ", ".join(entries) + "}")
    if on_cluster:
        lines.append("cluster: {" + ", ".join(f"{k}: {v}" for k, v in cluster.as_dict().items()) + "}")
    path = studies_dir / f"{name}.yaml"
    path.write_text("\n".join(lines) + "\n")
    return path


def swim_cluster(nodes: int | None) -> ClusterShape:
    """The replay's mini-cluster: SWIM_CLUSTER with ``nodes`` NodeManagers and DataNodes (1 if None)."""
    if nodes is not None and nodes < 1:
        raise SwimOptionError(f"--cluster {nodes}: a cluster has at least 1 node")
    n = nodes or 1
    return ClusterShape(**{**SWIM_CLUSTER.as_dict(), "nodemanagers": n, "datanodes": n, "session_executors": n})


def write_synthetic_trace(path: Path, jobs: int, seed: int) -> Path:
    """A trace in SWIM's format for demos and small tests: gaps exponential with a 5 s mean;
    input log-uniform from 1 KB to 100 GB; a third of the jobs without shuffle, the others
    shuffling 0.1% to 200% of their input; output 0.1% to 100% of input or shuffle."""
    rng = random.Random(seed)
    out = []
    submit = 0
    for i in range(jobs):
        gap = 0 if i == 0 else int(rng.expovariate(1 / 5))
        submit += gap
        input_bytes = int(10 ** rng.uniform(3, 11))
        shuffle = 0 if rng.random() < 1 / 3 else int(input_bytes * 10 ** rng.uniform(-3, 0.3))
        output = int(max(input_bytes if shuffle == 0 else shuffle, 1) * 10 ** rng.uniform(-3, 0))
        out.append(f"synth{i}\t{submit}\t{gap}\t{input_bytes}\t{shuffle}\t{output}\n")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text("".join(out))
    tmp.replace(path)
    return path
