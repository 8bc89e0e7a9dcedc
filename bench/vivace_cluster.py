"""bench/run --cluster N: a warm Vivace session on YARN against MapReduce on YARN, side by side on one
YARN + HDFS mini-cluster of N NodeManagers and N DataNodes (`./vivace minicluster`).

Reuses vivace_bench's Bench (runs, alternation, validation, table, results JSON); what differs is
where jobs go (`-conf` the mini-cluster's client configuration; `vivace.master=yarn` or
`mapreduce.framework.name=yarn`), where data lives (HDFS; outputs are copied back to check them) and
one workload of its own: a Vivace terasort that loses one executor, killed for real mid-job.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import vivace_bench as vb
from vivace_bench import Bench, Metric, Run, System, Workload, log

# sleep maps, terasort rows, wordcount bytes, sort bytes (sort is not run here). MapReduce on YARN
# starts a JVM per task (seconds each on 2 cores) and an AM per job, hence far smaller sizes than
# embedded; `large` is the (1000 maps, 1 GB, 1 GB).
CLUSTER_SCALES = {
    "tiny": (10, 100_000, 8 << 20, 0),
    "default": (100, 1_000_000, 128 << 20, 0),
    "large": (1000, 10_000_000, 1 << 30, 0),
}
# (timed empty jobs, warm-up jobs) of one LatencyBench process: an empty job takes ~25 s on
# MapReduce on YARN, under 100 ms on a warm session.
LATENCY_RUNS = {"vivace-yarn": (20, 5), "mapreduce-yarn": (2, 1)}
CLUSTER_WORKLOADS = ("latency", "sleep", "terasort", "wordcount", "executor-loss")
LOSS = "executor-loss"
# What the executor-loss row compares: attempts launched and the time of successful attempts.
TASK_COUNTERS = ("Launched map tasks", "Launched reduce tasks", "Killed map tasks", "Killed reduce tasks",
                 "Total time spent by all map tasks (ms)", "Total time spent by all reduce tasks (ms)")
SESSION = "bench"
EXECUTOR_MAIN = "io.vivace.cluster.executor.ExecutorMain"
# The job client's progress lines (every 100 ms with bench's polling) and when to kill: half the maps.
PROGRESS = re.compile(r" map (\d+)% reduce (\d+)%")
KILL_AT_MAP_PERCENT = 50
ROOT_DRIVER_CLASSPATH = vb.ROOT / "driver" / "target" / "classpath.txt"


class MiniCluster:
    """`./vivace minicluster` in the background; stopped by closing its stdin."""

    def __init__(self, work: Path, nodes: int):
        self.dir = work / "cluster"
        self.conf = self.dir / "client.xml"
        self.log_file = work / "minicluster.log"
        self.nodes = nodes
        self.process: subprocess.Popen | None = None
        self.start_s = 0.0

    def start(self) -> None:
        if self.dir.exists():
            shutil.rmtree(self.dir)
        self.dir.mkdir(parents=True)
        log(f"starting a mini-cluster: {self.nodes} NodeManagers, {self.nodes} DataNodes (log {self.log_file})")
        start = time.monotonic()
        with open(self.log_file, "wb") as err:
            self.process = subprocess.Popen(
                [str(vb.VIVACE), "minicluster", "--dir", str(self.dir), "--conf-out", str(self.conf),
                 "--nodemanagers", str(self.nodes), "--datanodes", str(self.nodes)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, text=True)
        line = self.process.stdout.readline()
        if not line.startswith("READY"):
            self.stop()
            raise SystemExit(f"the mini-cluster did not start (exit {self.process.returncode}); see {self.log_file}")
        self.start_s = time.monotonic() - start
        log(f"mini-cluster ready in {self.start_s:.1f} s: {self.conf}")

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.stdin.close()   # the mini-cluster stops at end of input (~20 s)
        try:
            self.process.wait(timeout=120)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def mapreduce_classpath() -> str:
    """MapReduce's ApplicationMaster and its shuffle, which `./vivace jar`'s class path lacks: on the
    mini-cluster (yarn.is.minicluster) containers get the job client's class path, so its jobs take
    the driver's (the lab runs MapReduce on YARN through `./vivace driver`)."""
    listed = ROOT_DRIVER_CLASSPATH.read_text().strip() if ROOT_DRIVER_CLASSPATH.is_file() else ""
    if "hadoop-mapreduce-client-app" not in listed:
        raise SystemExit(f"{ROOT_DRIVER_CLASSPATH} does not list hadoop-mapreduce-client-app: build the driver"
                         " (`./vivace classpath` builds every module)")
    return listed


def ps_table() -> list[tuple[int, list[str]]]:
    listed = subprocess.run(["ps", "-ww", "-eo", "pid=,args="], capture_output=True, text=True, check=True)
    rows = []
    for line in listed.stdout.splitlines():
        pid, _, args = line.strip().partition(" ")
        rows.append((int(pid), args.split()))
    return rows


class ClusterBench(Bench):
    """Bench with the two systems on one mini-cluster and the inputs and outputs on its HDFS."""

    scales = CLUSTER_SCALES

    def __init__(self, options, cluster: MiniCluster):
        self.cluster = cluster
        conf = ["-conf", str(cluster.conf)]
        self.session_options = [*conf, "-D", "mapreduce.framework.name=vivace", "-D", "vivace.master=yarn",
                                "-D", f"vivace.session.name={SESSION}"]
        vivace_yarn = System("vivace-yarn", "vivace-yarn", vb.VIVACE,
                             [*self.session_options, *vb.CLIENT_POLLING], "vivace")
        mapreduce_yarn = System("mapreduce-yarn", "mapreduce-yarn", vb.VIVACE,
                                [*conf, "-D", "mapreduce.framework.name=yarn", *vb.CLIENT_POLLING], "yarn",
                                (("HADOOP_CLASSPATH", mapreduce_classpath()),))
        super().__init__(options, mapreduce_yarn)
        self.systems = [vivace_yarn, mapreduce_yarn]
        self.commits = {s.name: self.commits["vivace"] for s in self.systems}
        self.application = ""
        self.session_start_s = 0.0
        self.generate_s: dict[str, float] = {}
        self.losses: list[dict] = []

    # ---- the session ---------------------------------------------------------------------------

    def start_session(self) -> None:
        """`./vivace session start`, timed apart from the jobs: one executor per NodeManager, kept
        warm, and no idle end while MapReduce's runs take their time."""
        nodes = str(self.cluster.nodes)
        command = [str(vb.VIVACE), "session", *self.session_options,
                   "-D", f"vivace.session.executors.min={nodes}", "-D", f"vivace.session.executors.max={nodes}",
                   "-D", "vivace.session.idle.timeout.ms=86400000", "start", SESSION]
        start = time.monotonic()
        started = subprocess.run(command, capture_output=True, text=True, env=self.env)
        self.session_start_s = time.monotonic() - start
        (self.work / "session-start.log").write_text(started.stderr + started.stdout)
        if started.returncode != 0:
            raise SystemExit(f"`{' '.join(command)}` failed (exit {started.returncode});"
                             f" see {self.work / 'session-start.log'}")
        self.application = started.stdout.split()[0]
        log(f"session {self.application} started in {self.session_start_s:.1f} s")

    def stop_session(self) -> None:
        if self.application:
            subprocess.run([str(vb.VIVACE), "session", *self.session_options, "stop", self.application],
                           capture_output=True, env=self.env)

    def executor_pids(self) -> list[int]:
        """The session's executor JVMs: their command line names the main class and, in the
        container log folder, the application."""
        return [pid for pid, args in ps_table()
                if args and args[0].endswith("/java") and EXECUTOR_MAIN in args
                and any(self.application in a for a in args)]

    # ---- HDFS --------------------------------------------------------------------------------

    def fs(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(vb.VIVACE), "fs", "-conf", str(self.cluster.conf), *args],
                              capture_output=True, text=True, env=self.env)

    def generate(self, name: str, args: list[str], expected_bytes: int | None = None) -> str:
        """Generates an input on HDFS (the cluster is new each time) with the Vivace session."""
        target = f"/bench/data/{name}"
        log(f"generating {name} on HDFS")
        seconds, _, status = vb.vivace_jar([*args[:2], *args[2:], target], self.systems[0].options,
                                           self.env, self.work / f"generate-{name}.log")
        if status != 0:
            raise SystemExit(f"generating {name} failed; see {self.work / f'generate-{name}.log'}")
        du = self.fs("-du", "-s", target)
        size = int(du.stdout.split()[0]) if du.returncode == 0 else 0
        if expected_bytes is not None and size < expected_bytes * 0.9:
            raise SystemExit(f"{name}: generated {size} bytes on HDFS, asked for {expected_bytes}")
        self.generate_s[name] = seconds
        log(f"generated {name}: {size / 1e6:.1f} MB in {seconds:.1f} s")
        return target

    def output_location(self, run_dir: Path) -> str:
        return f"/bench/runs/{run_dir.name}/out"

    def fetch_output(self, location: str, run_dir: Path) -> Path:
        local = run_dir / "out"
        self.fs("-copyToLocal", location, str(local))
        return local

    # ---- workloads ---------------------------------------------------------------------------

    def latency_workload(self) -> Workload:
        """LatencyBench without its sleep job (-m 0), fewer empty jobs on MapReduce (LATENCY_RUNS)."""
        label = "/".join(str(timed) for timed, _ in LATENCY_RUNS.values()) + " empty jobs"
        return Workload(
            "latency", label, [str(vb.WORKLOADS_JAR), vb.LATENCY_BENCH, "-m", "0", "-json", "{run}/latency.json"],
            system_args={name: ["-runs", str(timed), "-warmup", str(warmup)]
                         for name, (timed, warmup) in LATENCY_RUNS.items()},
            report="latency.json",
            metrics=[Metric("empty-job latency", ("empty_job", "median_ms"), "ms", False, f"ms, median of {label}")])

    def base_workloads(self) -> list[Workload]:
        result = super().base_workloads()
        if LOSS in self.options.workloads.split(","):
            terasort = next(w for w in result if w.name == "terasort")
            # the same outputs: the run that loses an executor must write the undisturbed output
            result.append(Workload(LOSS, terasort.size, terasort.args, self.same_output, terasort.outputs,
                                   systems=(self.systems[0].name,)))
        return result

    def counter_names(self, workload: Workload) -> tuple[str, ...]:
        extra = TASK_COUNTERS if workload.name in ("terasort", LOSS) else ()
        return super().counter_names(workload) + extra

    def run_once(self, workload: Workload, system: System, repeat: int) -> Run:
        loss, ended = {"repeat": repeat}, threading.Event()
        if workload.name == LOSS:
            log_file = self.runs_dir / f"{workload.name}-{system.name}-{repeat}" / "job.log"
            threading.Thread(target=self.kill_mid_job, args=(log_file, loss, ended), daemon=True).start()
        try:
            run = super().run_once(workload, system, repeat)
        finally:
            ended.set()
            self.fs("-rm", "-r", "-f", "-skipTrash", f"/bench/runs/{workload.name}-{system.name}-{repeat}")
        if workload.name == LOSS:
            if "killed_pid" not in loss:
                run.ok, run.detail = False, f"no executor was killed: {loss.get('error', 'the job ended first')}"
            loss["seconds"], loss["ok"] = run.seconds, run.ok
            loss["counters"] = run.counters
            self.losses.append(loss)
        return run

    def kill_mid_job(self, log_file: Path, loss: dict, ended: threading.Event) -> None:
        """Kills one of the session's executors once the job client reports KILL_AT_MAP_PERCENT of
        the maps done and the reduce not: its finished maps' outputs are then still needed."""
        start = time.monotonic()
        while not ended.wait(0.02):
            try:
                progress = PROGRESS.findall(log_file.read_text(errors="replace"))
            except OSError:
                continue
            if progress and int(progress[-1][0]) >= KILL_AT_MAP_PERCENT and int(progress[-1][1]) < 100:
                loss["kill_after_s"], loss["progress"] = time.monotonic() - start, "map {}% reduce {}%".format(*progress[-1])
                self.kill_executor(loss)
                return

    def kill_executor(self, loss: dict) -> None:
        pids = self.executor_pids()
        if not pids:
            loss["error"] = f"no executor JVM of {self.application} found by ps"
            return
        os.kill(pids[0], signal.SIGKILL)
        loss["killed_pid"], loss["executors"] = pids[0], len(pids)
        log(f"  killed executor pid {pids[0]} ({len(pids)} running) after {loss['kill_after_s']:.1f} s"
            f" at {loss.get('progress', '?')}")

    # ---- report ------------------------------------------------------------------------------

    def table(self) -> list[dict]:
        return [row for row in super().table() if row["workload"] != LOSS]

    def loss_summary(self) -> dict | None:
        """The executor-loss runs against the undisturbed terasort on the session."""
        if not self.losses:
            return None
        name = self.systems[0].name
        undisturbed = [r for r in self.runs if r.workload == "terasort" and r.system == name and r.ok]
        lost = [loss for loss in self.losses if loss["ok"]]
        if not undisturbed or not lost:
            return {"workload": LOSS, "failed": True, "runs": self.losses}

        def task_seconds(counters: dict) -> float:
            return (counters.get("Total time spent by all map tasks (ms)", 0)
                    + counters.get("Total time spent by all reduce tasks (ms)", 0)) / 1000

        def launched(counters: dict) -> int:
            return counters.get("Launched map tasks", 0) + counters.get("Launched reduce tasks", 0)

        base_s = statistics.median(r.seconds for r in undisturbed)
        lost_s = statistics.median(loss["seconds"] for loss in lost)
        base_tasks = statistics.median(task_seconds(r.counters) for r in undisturbed)
        redone = statistics.median(task_seconds(loss["counters"]) for loss in lost) - base_tasks
        return {
            "workload": LOSS, "size": undisturbed[0].size,
            "undisturbed_median_s": base_s, "with_loss_median_s": lost_s, "extra_s": lost_s - base_s,
            "kill_after_s": statistics.median(loss["kill_after_s"] for loss in lost),
            "extra_attempts": statistics.median(launched(loss["counters"]) for loss in lost)
            - statistics.median(launched(r.counters) for r in undisturbed),
            "redone_task_s": redone, "runs": self.losses,
        }

    def print_loss(self, loss: dict | None) -> None:
        if loss is None:
            return
        if loss.get("failed"):
            print(f"\n{LOSS}: failed, see the runs in the results JSON")
            return
        print(f"\n{LOSS} ({loss['size']} terasort on the session, one executor killed (SIGKILL) at"
              f" {KILL_AT_MAP_PERCENT}% of the maps, after {loss['kill_after_s']:.1f} s):\n  undisturbed {loss['undisturbed_median_s']:.2f} s,"
              f" with the loss {loss['with_loss_median_s']:.2f} s: {loss['extra_s']:+.2f} s;"
              f" {loss['extra_attempts']:.0f} attempts more, successful attempts' time"
              f" {loss['redone_task_s']:+.2f} task-s (the lost work run again)")


def check_workloads(chosen: list[str]) -> str | None:
    unknown = [name for name in chosen if name not in CLUSTER_WORKLOADS]
    if unknown:
        return f"--cluster runs {','.join(CLUSTER_WORKLOADS)}; not {','.join(unknown)}"
    if LOSS in chosen and "terasort" not in chosen:
        return f"--workloads {LOSS} needs terasort too: the loss is timed against it"
    return None


def run(options) -> int:
    """The whole cluster mode: mini-cluster, session, runs, report; everything stopped at the end."""
    work = Path(options.work_dir).resolve()
    work.mkdir(parents=True, exist_ok=True)
    cluster = MiniCluster(work, options.cluster)
    bench = None
    # SIGTERM (and SIGINT, which a background job ignores) stop the session and the cluster too
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        cluster.start()
        bench = ClusterBench(options, cluster)
        bench.start_session()
        # untimed: the first job of this launcher (class data archive) and of the session
        vb.vivace_jar([str(vb.WORKLOADS_JAR), vb.EMPTY_JOB], bench.systems[0].options, bench.env,
                      work / "first-job.log")
        bench.run()
    finally:
        if bench is not None:
            bench.stop_session()
        cluster.stop()
    rows = bench.table()
    loss = bench.loss_summary()
    extra = {"cluster": {"nodemanagers": cluster.nodes, "datanodes": cluster.nodes,
                         "minicluster_start_s": cluster.start_s, "session": bench.application,
                         "session_start_s": bench.session_start_s, "generate_s": bench.generate_s},
             "executor_loss": loss}
    status = vb.report(bench, rows, extra, after_table=lambda: bench.print_loss(loss))
    print(f"session start (apart from the jobs): {bench.session_start_s:.1f} s; mini-cluster start"
          f" {cluster.start_s:.1f} s")
    return status
