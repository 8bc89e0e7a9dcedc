"""Writes terasort-vivace.json: a run record as the bench driver writes one (docs/run-record.md).

Its configuration is Hadoop 3.4.2's core-default.xml and mapred-default.xml (from the jars in the
local Maven repository) with the run's overrides applied, about 690 keys, the size of a real job's
effective configuration. Jobs, tasks and counters follow a 2-map, 1-reduce TeraSort of 100,000
rows on Vivace, with the prepare (TeraGen) and validate (TeraValidate) jobs around it.

    python lab/tests/data/make_terasort_record.py ~/.m2/repository
"""

import glob
import json
import sys
import zipfile
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent
T0 = 1763766000000  # 2025-11-21T23:00:00Z

OVERRIDES = {
    "mapreduce.task.io.sort.mb": "64",
    "mapreduce.map.output.compress": "true",
    "mapreduce.map.output.compress.codec": "org.apache.hadoop.io.compress.SnappyCodec",
    "vivace.slots": "4",
}


def defaults(m2: Path) -> dict[str, str]:
    conf: dict[str, str] = {}
    for artifact, name in (("hadoop-common", "core-default.xml"),
                           ("hadoop-mapreduce-client-core", "mapred-default.xml")):
        pattern = f"org/apache/hadoop/{artifact}/3.4.2/{artifact}-3.4.2.jar"
        jar = sorted(glob.glob(str(m2 / pattern)))[0]
        with zipfile.ZipFile(jar) as z:
            root = ET.fromstring(z.read(name))
        for prop in root.iter("property"):
            key = prop.findtext("name").strip()
            conf[key] = (prop.findtext("value") or "").strip()
    return conf


def tasks(job: str, maps: int, reduces: int, start: int, map_ms: int, reduce_ms: int):
    out = []
    for i in range(maps):
        s = start + 40 + 7 * i
        out.append({"task_id": f"task_{job}_m_{i:06d}", "type": "MAP", "status": "SUCCEEDED",
                    "start_ms": s, "finish_ms": s + map_ms + 31 * i})
    for i in range(reduces):
        s = start + 60 + map_ms
        out.append({"task_id": f"task_{job}_r_{i:06d}", "type": "REDUCE", "status": "SUCCEEDED",
                    "start_ms": s, "finish_ms": s + reduce_ms})
    return out


def main() -> None:
    m2 = Path(sys.argv[1] if len(sys.argv) > 1 else Path.home() / ".m2/repository")
    conf = defaults(m2)
    conf.update({"mapreduce.framework.name": "vivace", "fs.defaultFS": "file:///",
                 "mapreduce.job.maps": "2", "mapreduce.job.reduces": "1",
                 "mapreduce.job.name": "TeraSort",
                 "mapreduce.job.output.key.class": "org.apache.hadoop.io.Text",
                 "mapreduce.terasort.simplepartitioner": "false"})
    conf.update(OVERRIDES)
    gen, sort = "job_vivace1763766000_0001", "job_vivace1763766000_0002"
    val = "job_local1493202177_0001"  # validation runs on Apache's local runner
    rows, size = 100000, 10000000
    record = {
        "record_version": 1,
        "workload": "terasort",
        "params": {"rows": str(rows), "maps": "2", "reduces": "1"},
        "framework": "vivace",
        "default_fs": "file:///",
        "data_root": "file:///tmp/lab/data",
        "work_root": "file:///tmp/lab/work/r1",
        "overrides": OVERRIDES,
        "configuration": dict(sorted(conf.items())),
        "status": "SUCCEEDED",
        "failure": None,
        "started_ms": T0 + 2000,
        "finished_ms": T0 + 3734,
        "data": {"path": "file:///tmp/lab/data/teragen-rows=100000", "requested_bytes": size,
                 "actual_bytes": size, "reused": False,
                 "checksum": "terasum:7a1c3f0e2b9d4c85 rows=100000"},
        "validation": {"status": "PASSED",
                       "detail": "teravalidate: 100000 rows in order, checksum equals input",
                       "output_checksum": "sha256:5f0c9be1d43a8e2b7c61f90d2e8a4b3c"
                                          "1d0e9f8a7b6c5d4e3f2a1b0c9d8e7f6a",
                       "output_bytes": size},
        "results": {},
        "jobs": [
            {"phase": "prepare", "job_id": gen, "name": "TeraGen", "status": "SUCCEEDED",
             "submit_ms": T0, "start_ms": T0 + 12, "finish_ms": T0 + 905, "done_ms": T0 + 911,
             "maps": 2, "reduces": 0,
             "counters": {
                 "org.apache.hadoop.mapreduce.TaskCounter": {
                     "MAP_INPUT_RECORDS": rows, "MAP_OUTPUT_RECORDS": rows, "SPILLED_RECORDS": 0,
                     "GC_TIME_MILLIS": 14, "CPU_MILLISECONDS": 820},
                 "org.apache.hadoop.mapreduce.FileSystemCounter": {
                     "FILE_BYTES_READ": 0, "FILE_BYTES_WRITTEN": size + 1232,
                     "FILE_READ_OPS": 0, "FILE_WRITE_OPS": 4},
                 "org.apache.hadoop.mapreduce.lib.output.FileOutputFormatCounter": {
                     "BYTES_WRITTEN": size},
                 "org.apache.hadoop.examples.terasort.TeraGen$Counters": {
                     "CHECKSUM": 214735802998321}},
             "tasks": tasks(gen, 2, 0, T0, 830, 0)},
            {"phase": "run", "job_id": sort, "name": "TeraSort", "status": "SUCCEEDED",
             "submit_ms": T0 + 2000, "start_ms": T0 + 2011, "finish_ms": T0 + 3722,
             "done_ms": T0 + 3730, "maps": 2, "reduces": 1,
             "counters": {
                 "org.apache.hadoop.mapreduce.TaskCounter": {
                     "MAP_INPUT_RECORDS": rows, "MAP_OUTPUT_RECORDS": rows,
                     "MAP_OUTPUT_BYTES": 10200000, "MAP_OUTPUT_MATERIALIZED_BYTES": 4811730,
                     "SPLIT_RAW_BYTES": 242, "COMBINE_INPUT_RECORDS": 0,
                     "COMBINE_OUTPUT_RECORDS": 0, "REDUCE_INPUT_GROUPS": rows,
                     "REDUCE_SHUFFLE_BYTES": 4811730, "REDUCE_INPUT_RECORDS": rows,
                     "REDUCE_OUTPUT_RECORDS": rows, "SPILLED_RECORDS": 2 * rows,
                     "SHUFFLED_MAPS": 2, "FAILED_SHUFFLE": 0, "MERGED_MAP_OUTPUTS": 2,
                     "GC_TIME_MILLIS": 37, "CPU_MILLISECONDS": 2950,
                     "PHYSICAL_MEMORY_BYTES": 1073741824, "VIRTUAL_MEMORY_BYTES": 5368709120,
                     "COMMITTED_HEAP_BYTES": 805306368},
                 "org.apache.hadoop.mapreduce.FileSystemCounter": {
                     "FILE_BYTES_READ": 24811972, "FILE_BYTES_WRITTEN": 24813410,
                     "FILE_READ_OPS": 0, "FILE_LARGE_READ_OPS": 0, "FILE_WRITE_OPS": 0},
                 "Shuffle Errors": {"BAD_ID": 0, "CONNECTION": 0, "IO_ERROR": 0,
                                    "WRONG_LENGTH": 0, "WRONG_MAP": 0, "WRONG_REDUCE": 0},
                 "org.apache.hadoop.mapreduce.lib.input.FileInputFormatCounter": {
                     "BYTES_READ": size},
                 "org.apache.hadoop.mapreduce.lib.output.FileOutputFormatCounter": {
                     "BYTES_WRITTEN": size}},
             "tasks": tasks(sort, 2, 1, T0 + 2011, 690, 880)},
            {"phase": "validate", "job_id": val, "name": "TeraValidate",
             "status": "SUCCEEDED", "submit_ms": T0 + 3800, "start_ms": None,
             "finish_ms": None, "done_ms": T0 + 4950, "maps": 1, "reduces": 1,
             "counters": {
                 "org.apache.hadoop.mapreduce.TaskCounter": {
                     "MAP_INPUT_RECORDS": rows, "MAP_OUTPUT_RECORDS": 3,
                     "REDUCE_OUTPUT_RECORDS": 1}},
             "tasks": []},
        ],
    }
    (HERE / "terasort-vivace.json").write_text(json.dumps(record, indent=1) + "\n")


if __name__ == "__main__":
    main()
