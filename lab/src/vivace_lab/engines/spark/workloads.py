"""The PySpark jobs: TeraSort, WordCount and the sleep scheduling test, each reading the bench
driver's input and writing what the Hadoop job would write, byte for byte.

Output is committed like Hadoop's FileOutputCommitter does it: each task attempt writes its part
under ``<output>/_temporary``, and once the job succeeded the parts are renamed into place and
``_SUCCESS`` is written; a failed job leaves no part file.
"""

from __future__ import annotations

import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator

from vivace_lab.engines.spark.hadoop_text import hash_partition, tokens

TERA_ROW_BYTES = 100
TERA_KEY_BYTES = 10
TEMPORARY = "_temporary"


@dataclass
class Written:
    """What the job wrote: records and bytes over all parts."""

    parts: int = 0
    records: int = 0
    bytes: int = 0


def terasort(sc, params: dict[str, int], input_dir: str, output: Path) -> Written:
    reduces = params["reduces"]
    rows = sc.binaryRecords(input_dir, TERA_ROW_BYTES).map(lambda row: (row[:TERA_KEY_BYTES], row))
    ordered = rows.sortByKey(ascending=True, numPartitions=reduces)
    return _write_parts(ordered, output, lambda pairs: (row for _, row in pairs))


def wordcount(sc, params: dict[str, int], input_dir: str, output: Path) -> Written:
    reduces = params["reduces"]
    counts = (sc.textFile(input_dir, minPartitions=params["maps"], use_unicode=False)
              .flatMap(tokens)
              .map(lambda word: (word, 1))
              .reduceByKey(lambda a, b: a + b, numPartitions=reduces,
                           partitionFunc=lambda word: hash_partition(word, reduces)))
    return _write_parts(counts, output,
                        lambda pairs: (b"%s\t%d\n" % pair for pair in sorted(pairs)))


def sleep(sc, params: dict[str, int]) -> None:
    maps, reduces = params["maps"], params["reduces"]
    map_s, reduce_s = params["map_ms"] / 1000.0, params["reduce_ms"] / 1000.0

    def map_task(index: int, _: Iterable) -> Iterator:
        time.sleep(map_s)
        yield index, None

    def reduce_task(pairs: Iterable) -> Iterator:
        time.sleep(reduce_s)
        yield sum(1 for _ in pairs)

    tasks = sc.parallelize(range(maps), maps).mapPartitionsWithIndex(map_task)
    if reduces:
        tasks = tasks.partitionBy(reduces).mapPartitions(reduce_task)
    tasks.collect()


def _write_parts(rdd, output: Path, lines: Callable[[Iterable], Iterable[bytes]]) -> Written:
    """Each partition to ``part-r-NNNNN``, committed once every task succeeded."""
    temporary = output / TEMPORARY
    temporary.mkdir(parents=True)
    target = str(temporary)

    def write(index: int, items: Iterable) -> Iterator[tuple[int, str, int, int]]:
        from pyspark import TaskContext
        path = os.path.join(target, f"part-r-{index:05d}.attempt-{TaskContext.get().attemptNumber()}")
        records = size = 0
        with open(path, "wb") as out:
            for line in lines(items):
                out.write(line)
                records += 1
                size += len(line)
        yield index, path, records, size

    done = rdd.mapPartitionsWithIndex(write).collect()
    written = Written()
    for index, path, records, size in sorted(done):
        os.replace(path, output / f"part-r-{index:05d}")
        written.parts += 1
        written.records += records
        written.bytes += size
    shutil.rmtree(temporary)
    (output / "_SUCCESS").touch()
    return written
