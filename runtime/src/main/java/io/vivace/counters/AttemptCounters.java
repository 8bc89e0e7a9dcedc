package io.vivace.counters;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.FileSystemCounter;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.counters.FrameworkCounterGroup;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormatCounter;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormatCounter;
import org.apache.hadoop.util.StringUtils;

/**
 * One task attempt's counters. The counters the framework itself keeps ({@link TaskCounter}, the
 * file input and output format counters, the file system counters) are plain {@code long} slots:
 * a Hadoop {@link Counters} costs a resource-bundle lookup per group it creates and several map
 * lookups per counter, most of a small task's counting. Hadoop counters are made only for what user
 * code asks for ({@link #hadoopCounter}); a framework counter it asks for takes over its slot's
 * count, so both see one value. {@link #toCounters} gives the whole as Hadoop's {@code Counters},
 * the same counters with the same values that counting in Hadoop's {@code Counters} throughout
 * would have made, and {@link #visitFrameworkOnly} reads the slots without making any.
 */
public final class AttemptCounters {

  /** The framework counters that have slots, numbered. */
  private static final Enum<?>[] KEYS = keys();
  private static final Map<Enum<?>, Integer> INDEX = new IdentityHashMap<>();
  /** Slot groups in the order Hadoop's Counters iterate framework groups: by group name. */
  private static final Class<?>[] GROUPS_IN_ORDER;

  static {
    for (int i = 0; i < KEYS.length; i++) {
      INDEX.put(KEYS[i], i);
    }
    Map<String, Class<?>> byName = new TreeMap<>();
    for (Class<?> c : new Class<?>[] {FileSystemCounter.class, TaskCounter.class, FileInputFormatCounter.class,
        FileOutputFormatCounter.class}) {
      byName.put(c.getName(), c);
    }
    GROUPS_IN_ORDER = byName.values().toArray(new Class<?>[0]);
  }

  private static Enum<?>[] keys() {
    TaskCounter[] task = TaskCounter.values();
    Enum<?>[] keys = new Enum<?>[task.length + 2];
    System.arraycopy(task, 0, keys, 0, task.length);
    keys[task.length] = FileInputFormatCounter.BYTES_READ;
    keys[task.length + 1] = FileOutputFormatCounter.BYTES_WRITTEN;
    return keys;
  }

  /** Reads counters group by group, in Hadoop's order. */
  public interface Visitor {
    void group(String name) throws IOException;

    void counter(String name, long value) throws IOException;

    void endGroup() throws IOException;
  }

  private final Slot[] slots = new Slot[KEYS.length];
  /** File system counters by upper-case scheme, in Hadoop's order; null until the attempt adds them. */
  private TreeMap<String, long[]> fileSystems;
  /** Made when user code first asks for a counter. */
  private Counters hadoop;

  /** Counters of an attempt that ran elsewhere, as Hadoop's {@code Counters} carried them here. */
  public static AttemptCounters from(Counters counters) {
    AttemptCounters result = new AttemptCounters();
    for (Counters.Group group : counters) {
      for (Counters.Counter counter : group) {
        result.hadoopCounter(group.getName(), counter.getName()).increment(counter.getValue());
      }
    }
    return result;
  }

  /** The framework's counter for {@code key} (a {@link TaskCounter} or a file format counter). */
  public synchronized Counter frameworkCounter(Enum<?> key) {
    Integer i = INDEX.get(key);
    if (i == null) {
      return hadoopCounter(key);
    }
    Slot slot = slots[i];
    if (slot == null) {
      slot = new Slot(key);
      slots[i] = slot;
      if (hadoop != null) {
        slot.adopt(hadoop.findCounter(key));
      }
    }
    return slot;
  }

  /** Hadoop's counter for user code; a framework counter's slot moves its count there. */
  public synchronized Counters.Counter hadoopCounter(Enum<?> key) {
    return adopted(hadoop().findCounter(key));
  }

  /** Hadoop's counter by group and name, as {@code Counters.findCounter(group, name)} finds it. */
  public synchronized Counters.Counter hadoopCounter(String group, String name) {
    return adopted(hadoop().findCounter(group, name));
  }

  /** Adds what the attempt did through a file system of {@code scheme}: one value per {@link FileSystemCounterTracker#KEYS}. */
  public synchronized void addFileSystem(String scheme, long[] values) {
    if (hadoop != null) {
      FileSystemCounter[] keys = FileSystemCounterTracker.KEYS;
      for (int k = 0; k < keys.length; k++) {
        hadoop.findCounter(scheme, keys[k]).increment(values[k]);
      }
      return;
    }
    if (fileSystems == null) {
      fileSystems = new TreeMap<>();
    }
    long[] sum = fileSystems.computeIfAbsent(StringUtils.toUpperCase(scheme),
        s -> new long[FileSystemCounterTracker.KEYS.length]);
    for (int k = 0; k < sum.length; k++) {
      sum[k] += values[k];
    }
  }

  /** The sum of every counter's value: changes whenever one does (see {@code TaskReporter.activity}). */
  public synchronized long activity() {
    long sum = 0;
    for (Slot slot : slots) {
      if (slot != null) {
        sum += slot.getValue();
      }
    }
    if (fileSystems != null) {
      for (long[] values : fileSystems.values()) {
        for (long v : values) {
          sum += v;
        }
      }
    }
    if (hadoop != null) {
      for (Counters.Group group : hadoop) {
        for (Counters.Counter c : group) {
          sum += c.getValue();
        }
      }
    }
    return sum;
  }

  /** The counters as Hadoop's; from then on they are counted there. */
  public synchronized Counters toCounters() {
    return hadoop();
  }

  /**
   * Reads the counters without making Hadoop's, when only framework slots hold them; returns false
   * (and reads nothing) once user code asked for a counter: then use {@link #toCounters}.
   */
  public synchronized boolean visitFrameworkOnly(Visitor visitor) throws IOException {
    if (hadoop != null) {
      return false;
    }
    for (Class<?> group : GROUPS_IN_ORDER) {
      if (group == FileSystemCounter.class) {
        visitFileSystems(visitor);
        continue;
      }
      boolean open = false;
      for (Slot slot : slots) {
        if (slot != null && slot.key.getDeclaringClass() == group) {
          if (!open) {
            visitor.group(group.getName());
            open = true;
          }
          visitor.counter(slot.key.name(), slot.value);
        }
      }
      if (open) {
        visitor.endGroup();
      }
    }
    return true;
  }

  private void visitFileSystems(Visitor visitor) throws IOException {
    if (fileSystems == null || fileSystems.isEmpty()) {
      return;
    }
    FileSystemCounter[] keys = FileSystemCounterTracker.KEYS;
    visitor.group(FileSystemCounter.class.getName());
    for (Map.Entry<String, long[]> e : fileSystems.entrySet()) {
      for (int k = 0; k < keys.length; k++) {
        visitor.counter(e.getKey() + "_" + keys[k].name(), e.getValue()[k]);
      }
    }
    visitor.endGroup();
  }

  /** Adds every counter to {@code totals}, when only framework slots hold them; false once user code asked for one. */
  synchronized boolean addFrameworkOnlyTo(CounterTotals totals) {
    if (hadoop != null) {
      return false;
    }
    for (Slot slot : slots) {
      if (slot != null) {
        totals.addFramework(slot.key, slot.value);
      }
    }
    if (fileSystems != null) {
      FileSystemCounter[] keys = FileSystemCounterTracker.KEYS;
      for (Map.Entry<String, long[]> e : fileSystems.entrySet()) {
        for (int k = 0; k < keys.length; k++) {
          totals.addFileSystem(e.getKey(), keys[k], e.getValue()[k]);
        }
      }
    }
    return true;
  }

  private Counters hadoop() {
    if (hadoop == null) {
      hadoop = new Counters();
      for (Slot slot : slots) {
        if (slot != null) {
          slot.adopt(hadoop.findCounter(slot.key));
        }
      }
      if (fileSystems != null) {
        TreeMap<String, long[]> pending = fileSystems;
        fileSystems = null;
        pending.forEach(this::addFileSystem);
      }
    }
    return hadoop;
  }

  /** A framework counter user code now sees: its slot, if it has one, counts into it. */
  private Counters.Counter adopted(Counters.Counter counter) {
    if (counter.getUnderlyingCounter() instanceof FrameworkCounterGroup.FrameworkCounter<?> f) {
      Integer i = INDEX.get(f.getKey());
      if (i != null && slots[i] != null && slots[i].hadoop == null) {
        slots[i].adopt(counter);
      }
    }
    return counter;
  }

  /** A framework counter: a long, until user code asks for it; then Hadoop's counter holds it. */
  private static final class Slot implements Counter {
    final Enum<?> key;
    long value;
    Counter hadoop;

    Slot(Enum<?> key) {
      this.key = key;
    }

    void adopt(Counter counter) {
      counter.increment(value);
      value = 0;
      hadoop = counter;
    }

    @Override
    public void increment(long incr) {
      if (hadoop == null) {
        value += incr;
      } else {
        hadoop.increment(incr);
      }
    }

    @Override
    public long getValue() {
      return hadoop == null ? value : hadoop.getValue();
    }

    @Override
    public void setValue(long v) {
      if (hadoop == null) {
        value = v;
      } else {
        hadoop.setValue(v);
      }
    }

    @Override
    public String getName() {
      return key.name();
    }

    @Override
    public String getDisplayName() {
      return hadoop != null ? hadoop.getDisplayName() : new Counters().findCounter(key).getDisplayName();
    }

    @Override
    public void setDisplayName(String displayName) {
      // framework counters' display names come from Hadoop's resource bundles
    }

    @Override
    public Counter getUnderlyingCounter() {
      return this;
    }

    @Override
    public void write(DataOutput out) throws IOException {
      throw new UnsupportedOperationException("framework counter slots are not serialised");
    }

    @Override
    public void readFields(DataInput in) throws IOException {
      throw new UnsupportedOperationException("framework counter slots are not serialised");
    }
  }
}
