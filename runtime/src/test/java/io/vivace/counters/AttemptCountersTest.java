package io.vivace.counters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.CounterGroup;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormatCounter;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormatCounter;
import org.junit.jupiter.api.Test;

/**
 * An attempt's counter slots and the job's totals must hold what Hadoop's own {@link Counters}
 * would, counted the same way: the same groups and counters (zeros included), names, display
 * names, values and order, whether or not user code asks for counters, framework ones included.
 */
class AttemptCountersTest {

  enum UserCounter { RECORDS_SEEN, BAD_RECORDS }

  /** One attempt's counting, done once on the slots and once on Hadoop's Counters. */
  private record Attempt(Consumer<AttemptCounters> slots, Consumer<Counters> hadoop) {
  }

  private static Attempt frameworkOnly(long records, long fileBytes) {
    return new Attempt(c -> {
      c.frameworkCounter(TaskCounter.MAP_INPUT_RECORDS).increment(records);
      c.frameworkCounter(TaskCounter.SPILLED_RECORDS); // asked for, never incremented: stays, at 0
      c.frameworkCounter(FileInputFormatCounter.BYTES_READ).increment(fileBytes);
      c.frameworkCounter(TaskCounter.MAP_OUTPUT_RECORDS).increment(records * 2);
      c.addFileSystem("file", new long[] {fileBytes, 0, 1, 0, 0});
      c.addFileSystem("hdfs", new long[] {0, 5, 0, 0, 2});
    }, c -> {
      c.findCounter(TaskCounter.MAP_INPUT_RECORDS).increment(records);
      c.findCounter(TaskCounter.SPILLED_RECORDS);
      c.findCounter(FileInputFormatCounter.BYTES_READ).increment(fileBytes);
      c.findCounter(TaskCounter.MAP_OUTPUT_RECORDS).increment(records * 2);
      addFileSystem(c, "file", new long[] {fileBytes, 0, 1, 0, 0});
      addFileSystem(c, "hdfs", new long[] {0, 5, 0, 0, 2});
    });
  }

  /** User code counts its own counters and also a framework one, before and after the framework does. */
  private static Attempt withUserCounters(long records) {
    return new Attempt(c -> {
      Counter input = c.frameworkCounter(TaskCounter.MAP_INPUT_RECORDS);
      input.increment(records);
      c.hadoopCounter(UserCounter.RECORDS_SEEN).increment(records);
      Counters.Counter named = c.hadoopCounter("my group", "my counter");
      named.setDisplayName("My counter");
      named.increment(3);
      c.hadoopCounter(TaskCounter.MAP_INPUT_RECORDS).increment(1); // the framework's, seen by user code
      input.increment(1);
      c.frameworkCounter(FileOutputFormatCounter.BYTES_WRITTEN).increment(7);
      c.addFileSystem("file", new long[] {1, 2, 3, 4, 5});
    }, c -> {
      Counter input = c.findCounter(TaskCounter.MAP_INPUT_RECORDS);
      input.increment(records);
      c.findCounter(UserCounter.RECORDS_SEEN).increment(records);
      Counters.Counter named = c.findCounter("my group", "my counter");
      named.setDisplayName("My counter");
      named.increment(3);
      c.findCounter(TaskCounter.MAP_INPUT_RECORDS).increment(1);
      input.increment(1);
      c.findCounter(FileOutputFormatCounter.BYTES_WRITTEN).increment(7);
      addFileSystem(c, "file", new long[] {1, 2, 3, 4, 5});
    });
  }

  private static void addFileSystem(Counters c, String scheme, long[] values) {
    for (int k = 0; k < values.length; k++) {
      c.findCounter(scheme, FileSystemCounterTracker.KEYS[k]).increment(values[k]);
    }
  }

  /** Everything a client sees of counters, in iteration order. */
  private static List<String> rendered(Counters counters) {
    List<String> lines = new ArrayList<>();
    for (CounterGroup group : new org.apache.hadoop.mapreduce.Counters(counters)) {
      lines.add(group.getName() + " (" + group.getDisplayName() + ")");
      for (Counter c : group) {
        lines.add("  " + c.getName() + " (" + c.getDisplayName() + ") = " + c.getValue());
      }
    }
    return lines;
  }

  private static List<String> visited(AttemptCounters counters) throws IOException {
    List<String> lines = new ArrayList<>();
    assertTrue(counters.visitFrameworkOnly(new AttemptCounters.Visitor() {
      @Override
      public void group(String name) {
        lines.add(name);
      }

      @Override
      public void counter(String name, long value) {
        lines.add("  " + name + " = " + value);
      }

      @Override
      public void endGroup() {
      }
    }), "only framework slots hold the counters");
    return lines;
  }

  private static List<String> namesAndValues(Counters counters) {
    List<String> lines = new ArrayList<>();
    for (Counters.Group group : counters) {
      lines.add(group.getName());
      for (Counters.Counter c : group) {
        lines.add("  " + c.getName() + " = " + c.getValue());
      }
    }
    return lines;
  }

  @Test
  void slotsReadAndConvertLikeHadoopsCounters() throws IOException {
    Attempt attempt = frameworkOnly(10, 300);
    AttemptCounters slots = new AttemptCounters();
    attempt.slots().accept(slots);
    Counters hadoop = new Counters();
    attempt.hadoop().accept(hadoop);
    assertEquals(namesAndValues(hadoop), visited(slots), "the history reads the slots in Hadoop's order");
    assertEquals(rendered(hadoop), rendered(slots.toCounters()));
  }

  @Test
  void userCountersAndFrameworkCountersUserCodeAskedForAddUp() throws IOException {
    Attempt attempt = withUserCounters(10);
    AttemptCounters slots = new AttemptCounters();
    attempt.slots().accept(slots);
    assertFalse(slots.visitFrameworkOnly(new AttemptCounters.Visitor() {
      @Override
      public void group(String name) {
        throw new AssertionError("nothing is read once user code has counters");
      }

      @Override
      public void counter(String name, long value) {
        throw new AssertionError();
      }

      @Override
      public void endGroup() {
      }
    }));
    Counters hadoop = new Counters();
    attempt.hadoop().accept(hadoop);
    assertEquals(rendered(hadoop), rendered(slots.toCounters()));
    assertEquals(12, slots.hadoopCounter(TaskCounter.MAP_INPUT_RECORDS).getValue(),
        "user code and the framework count into one MAP_INPUT_RECORDS");
  }

  @Test
  void totalsOfAttemptsEqualHadoopsMergeOfTheirCounters() {
    List<Attempt> attempts = List.of(frameworkOnly(10, 300), withUserCounters(4), frameworkOnly(0, 0),
        withUserCounters(6));
    CounterTotals totals = new CounterTotals();
    Counters merged = new Counters();
    for (Attempt attempt : attempts) {
      AttemptCounters slots = new AttemptCounters();
      attempt.slots().accept(slots);
      totals.add(slots);
      Counters hadoop = new Counters();
      attempt.hadoop().accept(hadoop);
      merged.incrAllCounters(hadoop);
    }
    Counters summed = new Counters();
    totals.addTo(summed);
    assertEquals(rendered(merged), rendered(summed));
  }
}
