package io.vivace.conformance.libraries;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.conformance.CounterChecks;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.TaskType;

/** What makes a side-by-side run worth comparing: real records, several maps, the same counts. */
public final class RunShapes {

  private RunShapes() {}

  /**
   * The one job of each run read records and wrote some (map output records for a map-only job),
   * the run under test had at least {@code minMaps} maps, and both agree on the map input and
   * output and reduce output records.
   */
  public static void assertNonTrivial(SideBySide.Outcome outcome, int minMaps) throws Exception {
    Counters reference = outcome.reference().counters();
    Counters underTest = outcome.underTest().counters();
    String what = outcome.underTest().program();
    assertTrue(CounterChecks.value(reference, TaskCounter.MAP_INPUT_RECORDS) > 0, what + ": no map input records");
    for (TaskCounter counter : new TaskCounter[] {
        TaskCounter.MAP_INPUT_RECORDS, TaskCounter.MAP_OUTPUT_RECORDS, TaskCounter.REDUCE_OUTPUT_RECORDS}) {
      assertEquals(CounterChecks.value(reference, counter), CounterChecks.value(underTest, counter), what + ": " + counter);
    }
    long maps = outcome.underTest().onlyJob().tasks().stream().filter(t -> t.type() == TaskType.MAP).count();
    assertTrue(maps >= minMaps, what + ": " + maps + " maps, expected at least " + minMaps);
    boolean mapOnly = outcome.underTest().onlyJob().tasks().stream().noneMatch(t -> t.type() == TaskType.REDUCE);
    TaskCounter written = mapOnly ? TaskCounter.MAP_OUTPUT_RECORDS : TaskCounter.REDUCE_OUTPUT_RECORDS;
    assertTrue(CounterChecks.value(reference, written) > 0, what + ": no " + written);
  }
}
