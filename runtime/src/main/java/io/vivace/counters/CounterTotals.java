package io.vivace.counters;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.FileSystemCounter;
import org.apache.hadoop.mapreduce.counters.FileSystemCounterGroup;
import org.apache.hadoop.mapreduce.counters.FrameworkCounterGroup;

/**
 * The sum of many task attempts' counters, as {@link Counters#incrAllCounters} would compute it,
 * for a fraction of its cost: framework and file system counters are summed into plain
 * {@code long}s keyed by their enum (Hadoop's merge looks up every counter's localised display name
 * in a resource bundle, for every attempt); other groups go through Hadoop's own per-group steps.
 * {@link #addTo} turns the sums into Hadoop counters when a client or the job history asks.
 * Not thread-safe: the owner guards it.
 */
public final class CounterTotals {

  /** Framework counters that appeared in any attempt (even at 0), in first-seen order. */
  private final Map<Enum<?>, long[]> framework = new LinkedHashMap<>();
  /** File system counters by scheme (as Hadoop stores it, upper case). */
  private final Map<String, EnumMap<FileSystemCounter, long[]>> fileSystems = new LinkedHashMap<>();
  /** User-defined groups, merged the way Hadoop merges them (display names included). */
  private final Counters others = new Counters();

  /** Adds every counter of {@code attempt}, which has ended. */
  public void add(AttemptCounters attempt) {
    if (!attempt.addFrameworkOnlyTo(this)) {
      add(attempt.toCounters());
    }
  }

  void addFramework(Enum<?> key, long value) {
    framework.computeIfAbsent(key, k -> new long[1])[0] += value;
  }

  void addFileSystem(String scheme, FileSystemCounter key, long value) {
    fileSystems.computeIfAbsent(scheme, s -> new EnumMap<>(FileSystemCounter.class))
        .computeIfAbsent(key, k -> new long[1])[0] += value;
  }

  /** Adds every counter of {@code attempt}. */
  public void add(Counters attempt) {
    synchronized (attempt) {
      for (Counters.Group group : attempt) {
        Object underlying = group.getUnderlyingGroup();
        if (underlying instanceof FrameworkCounterGroup<?, ?>) {
          for (Counters.Counter c : group) {
            addFramework(((FrameworkCounterGroup.FrameworkCounter<?>) c.getUnderlyingCounter()).getKey(), c.getValue());
          }
        } else if (underlying instanceof FileSystemCounterGroup<?>) {
          for (Counters.Counter c : group) {
            FileSystemCounterGroup.FSCounter fs = (FileSystemCounterGroup.FSCounter) c.getUnderlyingCounter();
            addFileSystem(fs.getScheme(), fs.getFileSystemCounter(), c.getValue());
          }
        } else {
          addGroup(group);
        }
      }
    }
  }

  /** Hadoop's {@code Counters.incrAllCounters}, for one group. */
  private void addGroup(Counters.Group right) {
    Counters.Group left = others.getGroup(right.getName());
    left.setDisplayName(right.getDisplayName());
    for (Counters.Counter counter : right) {
      Counters.Counter sum = left.getCounterForName(counter.getName());
      sum.setDisplayName(counter.getDisplayName());
      sum.increment(counter.getValue());
    }
  }

  /** Adds the totals to {@code target}, creating the counters that appeared, as a merge would. */
  public void addTo(Counters target) {
    for (Map.Entry<Enum<?>, long[]> e : framework.entrySet()) {
      target.findCounter(e.getKey()).increment(e.getValue()[0]);
    }
    for (Map.Entry<String, EnumMap<FileSystemCounter, long[]>> scheme : fileSystems.entrySet()) {
      for (Map.Entry<FileSystemCounter, long[]> e : scheme.getValue().entrySet()) {
        Counter counter = target.findCounter(scheme.getKey(), e.getKey());
        counter.increment(e.getValue()[0]);
      }
    }
    target.incrAllCounters(others);
  }
}
