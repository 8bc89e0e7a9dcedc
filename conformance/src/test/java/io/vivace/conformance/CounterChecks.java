package io.vivace.conformance;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.CounterGroup;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.TaskCounter;

/** Counters that must agree between two runs of a deterministic job. */
public final class CounterChecks {

  /** Record counts; for jobs with a combiner the reduce-side ones also depend on combiner runs. */
  public static final TaskCounter[] RECORD_COUNTERS = {
    TaskCounter.MAP_INPUT_RECORDS,
    TaskCounter.MAP_OUTPUT_RECORDS,
    TaskCounter.REDUCE_INPUT_GROUPS,
    TaskCounter.REDUCE_INPUT_RECORDS,
    TaskCounter.REDUCE_OUTPUT_RECORDS,
  };

  private CounterChecks() {}

  public static long value(Counters counters, Enum<?> key) {
    Counter c = counters.findCounter(key);
    return c == null ? 0 : c.getValue();
  }

  /**
   * Groups the framework owns: Hadoop's (TaskCounter, JobCounter, FileSystemCounter, file
   * input/output format counters, "Shuffle Errors") and any a Vivace engine adds under
   * {@code io.vivace.}. Everything else is a user counter of the program.
   */
  public static boolean isFrameworkGroup(String group) {
    return group.startsWith("org.apache.hadoop.mapreduce.")
        || group.startsWith("org.apache.hadoop.mapred.")
        || group.equals("Shuffle Errors")
        || group.equals("FileSystemCounters")
        || group.startsWith("io.vivace.");
  }

  /** The record counters plus all user counters, as "group::name" to value. */
  public static Map<String, Long> comparable(Counters counters) {
    Map<String, Long> out = new TreeMap<>();
    for (TaskCounter t : RECORD_COUNTERS) {
      out.put(TaskCounter.class.getSimpleName() + "::" + t.name(), value(counters, t));
    }
    for (CounterGroup g : counters) {
      if (isFrameworkGroup(g.getName())) {
        continue;
      }
      for (Counter c : g) {
        out.put(g.getName() + "::" + c.getName(), c.getValue());
      }
    }
    return out;
  }

  public static Map<String, Long> userCounters(Counters counters) {
    Map<String, Long> out = new TreeMap<>();
    for (CounterGroup g : counters) {
      if (!isFrameworkGroup(g.getName())) {
        for (Counter c : g) {
          out.put(g.getName() + "::" + c.getName(), c.getValue());
        }
      }
    }
    return out;
  }

  /**
   * Record counters and user counters agree (a counter one side does not report counts as 0).
   * The message lists every disagreement.
   */
  public static void assertAgree(String what, String referenceName, Counters reference,
      String underTestName, Counters underTest) {
    Map<String, Long> r = comparable(reference);
    Map<String, Long> u = comparable(underTest);
    List<String> diffs = new ArrayList<>();
    TreeSet<String> keys = new TreeSet<>(r.keySet());
    keys.addAll(u.keySet());
    for (String k : keys) {
      long rv = r.getOrDefault(k, 0L);
      long uv = u.getOrDefault(k, 0L);
      if (rv != uv) {
        diffs.add(k + ": " + referenceName + "=" + rv + ", " + underTestName + "=" + uv);
      }
    }
    if (!diffs.isEmpty()) {
      fail(what + ": counters disagree:\n  " + String.join("\n  ", diffs)
          + "\n  (all compared: " + referenceName + "=" + r + ")");
    }
  }
}
