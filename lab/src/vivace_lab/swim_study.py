"""`vivace lab swim`: a SWIM trace replay as a generated study spec, run like any study.

Defaults fit one machine: the first 20 jobs of FB-2010 (9 s to 90 s of trace time) at the trace's
pace, sizes scaled by SWIM's integer rule to 1 of the traced cluster's 3000 machines, 4 MiB
partitions, on vivace, hadoop-local and hadoop-yarn, once each. ``--cluster N`` replays it on the
engines of the shared mini-cluster (hadoop-yarn, hadoop-tez, vivace-yarn) with N NodeManagers and N
DataNodes, as STAC compared two engines on one cluster.
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


class SwimOptionError(ValueError):
    """An option of `vivace lab swim` that cannot be used; the message says why."""


def traces_dir() -> Path:
    """$VIVACE_SWIM_DATA, else the project's shared traces beside the checkout."""
    configured = os.environ.get(TRACES_ENV)
    return Path(configured) if configured else paths.vivace_home().parent / "shared" / "data" / "swim"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--trace", default=None,
                        help=f"SWIM trace file (default: {DEFAULT_TRACE} in ${TRACES_ENV} or ../shared/data/swim)")
    parser.add_argument("--synthetic", type=int, default=None, metavar="JOBS",
                        help="replay a synthetic trace of this many jobs (seeded) instead of a real one")
    parser.add_argument("--first", type=int, default=0, help="trace position of the first job (default 0)")
    parser.add_argument("--jobs", type=int, default=None,
                        help=f"at most this many jobs (default {DEFAULT_JOBS}, or no limit with --window)")
    parser.add_argument("--window", type=int, default=0, metavar="S",
                        help="only jobs within S seconds of trace time (STAC: 1200, 302 jobs)")
    parser.add_argument("--scale", default="1/3000",
                        help="N/M: SWIM's integer scale, N machines replaying a trace of M (default 1/3000); "
                             "or a factor such as 1e-5")
    parser.add_argument("--gap-compression", type=float, default=1.0,
                        help="divide the trace's gaps by this (default 1: the trace's pace)")
    parser.add_argument("--cluster", type=int, default=None, metavar="N",
                        help=f"replay on the engines of one shared mini-cluster of N NodeManagers and N "
                             f"DataNodes (default engines then: {','.join(CLUSTER_ENGINES)})")
    parser.add_argument("--engines", default=None,
                        help=f"comma-separated (default {DEFAULT_ENGINES}, or the cluster engines with --cluster)")
    parser.add_argument("--seed", type=int, default=1, help="seed of every random choice (default 1)")
    parser.add_argument("--repeats", type=int, default=1, help="replays per engine (default 1; STAC: 3)")
    parser.add_argument("--block-size", default="4MiB", help="bytes of one input partition (default 4MiB)")
    parser.add_argument("--pool-partitions", type=int, default=64, help="input partitions in the pool (default 64)")
    parser.add_argument("--bytes-per-reduce", default="64MiB", help="shuffle + output per reducer (default 64MiB)")
    parser.add_argument("--restart", action="store_true", help="forget this replay's earlier runs and start over")
    parser.add_argument("--heap", default="2g", help="heap of JVMs that run tasks in-process (default 2g)")
    parser.add_argument("--report", default=None, help="HTML report path (default: <lab home>/reports/<study>.html)")


def swim_params(args: argparse.Namespace, trace: Path) -> dict[str, object]:
    """The swim workload's parameters for these options."""
    params: dict[str, object] = {"trace": str(trace), "first_job": args.first,
                                 "jobs": args.jobs if args.jobs is not None else (0 if args.window else DEFAULT_JOBS),
                                 "window_s": args.window}
    nodes = _NODES.match(args.scale)
    if nodes:
        params.update(cluster_nodes=int(nodes.group(1)), trace_nodes=int(nodes.group(2)), scale_factor=0)
    else:
        try:
            factor = float(args.scale)
        except ValueError:
            raise SwimOptionError(f"--scale '{args.scale}' is neither N/M (machines) nor a number") from None
        if not factor > 0:
            raise SwimOptionError(f"--scale {args.scale} must be greater than 0")
        params["scale_factor"] = factor
    if not args.gap_compression > 0:
        raise SwimOptionError(f"--gap-compression {args.gap_compression} must be greater than 0")
    try:
        params.update(gap_compression=args.gap_compression, bytes_per_reduce=parse_size(args.bytes_per_reduce),
                      pool_partitions=args.pool_partitions, block_size=parse_size(args.block_size),
                      seed=args.seed)
    except ValueError as e:
        raise SwimOptionError(str(e)) from None
    return params


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
    cluster = swim_cluster(args.cluster)
    on_cluster = any(e in CLUSTER_ENGINES for e in engines)
    if args.cluster is not None and not on_cluster:
        raise SwimOptionError(f"--cluster shapes the mini-cluster of {', '.join(CLUSTER_ENGINES)}; "
                              f"--engines names none of them")
    digest_of = [params, engines, args.repeats] + ([cluster.as_dict()] if on_cluster else [])
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
        "  - swim: {" + ", ".join(f"{k}: {json.dumps(v)}" for k, v in params.items()) + "}",
    ]
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
    return ClusterShape(**{**SWIM_CLUSTER.as_dict(), "nodemanagers": n, "datanodes": n})


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
