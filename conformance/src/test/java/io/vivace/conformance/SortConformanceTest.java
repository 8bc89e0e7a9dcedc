package io.vivace.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.examples.RandomWriter;
import org.apache.hadoop.examples.Sort;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Apache's {@code sort} example on random input: randomwriter's output is random, so it is written
 * once (on LocalJobRunner) and both frameworks sort that same input.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SortConformanceTest {

  private static final long BYTES_PER_MAP = 2L * 1024 * 1024;
  private static final int REDUCES = 2;
  /** Splits the ~2 MB SequenceFile into several map tasks (exercises sync-marker seeks). */
  private static final long SPLIT_MAX = 512 * 1024;

  @Test
  void sortMatchesLocalJobRunner(@TempDir Path tmp) throws Exception {
    String fut = Frameworks.underTest();
    String ref = Frameworks.REFERENCE;

    Path input = tmp.resolve("random");
    Runs.tool(ref, tmp.resolve("scratch-gen"), new RandomWriter(),
        "-D", RandomWriter.BYTES_PER_MAP + "=" + BYTES_PER_MAP,
        "-D", RandomWriter.MAPS_PER_HOST + "=1",
        input.toString()).assertSucceeded();
    OutputDirs.assertCommitted(input, "randomwriter (input of sort)");
    List<Path> inputFiles = OutputDirs.partFiles(input);
    long inputRecords = SeqFiles.countRecords(inputFiles);
    assertTrue(inputRecords > 10, "randomwriter wrote only " + inputRecords + " records");

    String[] args = {
      "-D", "mapreduce.input.fileinputformat.split.maxsize=" + SPLIT_MAX,
      "-r", Integer.toString(REDUCES),
      input.toString(), null};
    Path outRef = tmp.resolve("sorted-ref");
    Path outFut = tmp.resolve("sorted-fut");
    Sort<?, ?> refSort = new Sort<>();
    Sort<?, ?> futSort = new Sort<>();
    args[args.length - 1] = outRef.toString();
    Runs.Result refRun = Runs.tool(ref, tmp.resolve("scratch-ref"), refSort, args.clone())
        .assertSucceeded();
    args[args.length - 1] = outFut.toString();
    Runs.Result futRun = Runs.tool(fut, tmp.resolve("scratch-fut"), futSort, args.clone())
        .assertSucceeded();

    String what = "sort, " + REDUCES + " reducers (" + fut + " vs " + ref + ")";
    OutputDirs.assertCommitted(outRef, what + ", reference");
    OutputDirs.assertCommitted(outFut, what + ", under test");
    assertEquals(OutputDirs.expectedPartNames('r', REDUCES), OutputDirs.partNames(outFut),
        what + ": part files of the framework under test");
    SeqFiles.assertSameSequenceFiles(outRef, outFut, what);
    for (Path p : OutputDirs.partFiles(outFut)) {
      SeqFiles.assertSorted(p, what);
    }
    assertEquals(inputRecords, SeqFiles.countRecords(OutputDirs.partFiles(outFut)),
        what + ": records in the sorted output vs in the input");

    // Sort keeps its Job (getResult()); the recorder sees the same job.
    Job futJob = futSort.getResult();
    assertNotNull(futJob, "Sort.getResult()");
    assertTrue(futJob.isSuccessful(), what + ": Job.isSuccessful()");
    Counters futCounters = futJob.getCounters();
    CounterChecks.assertAgree(what, ref, refSort.getResult().getCounters(), fut, futCounters);
    CounterChecks.assertAgree(what + " (recorded)", "job", futCounters, "recorder",
        futRun.counters());
    assertEquals(inputRecords, CounterChecks.value(futCounters, TaskCounter.MAP_INPUT_RECORDS),
        what + ": map input records");
    assertEquals(inputRecords, CounterChecks.value(futCounters, TaskCounter.REDUCE_OUTPUT_RECORDS),
        what + ": reduce output records");
    assertEquals(1, refRun.jobs().size(), "sort on " + ref + ": jobs submitted");
  }
}
