package io.vivace.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.task.StreamingReduceContextTest.StreamedRecords;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableComparable;
import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.mapred.HadoopOldApiReduce;
import org.apache.hadoop.mapred.MapReduceBase;
import org.apache.hadoop.mapred.OutputCollector;
import org.apache.hadoop.mapred.Reducer;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.counters.GenericCounter;
import org.junit.jupiter.api.Test;

/**
 * Old-API reducers over {@link OldApiValues} against Hadoop's own {@code Task.ValuesIterator}
 * driven as Hadoop's ReduceTask drives it: the same key and value objects (two key objects taking
 * turns), the same values, the same output, and the same group and record counts, values left
 * unread not counted; grouping by the comparator's object comparison.
 */
class OldApiValuesTest {

  /** What a reducer saw: contents, and which of the objects seen so far each one is. */
  private static final class Trace {
    final List<String> events = new ArrayList<>();
    private final List<Object> objects = new ArrayList<>();

    void saw(String what, Object key, Object value) {
      events.add(what + " " + key + "#" + identity(key) + "=" + value + "#" + identity(value));
    }

    private int identity(Object o) {
      for (int i = 0; i < objects.size(); i++) {
        if (objects.get(i) == o) {
          return i;
        }
      }
      objects.add(o);
      return objects.size() - 1;
    }
  }

  abstract static class Traced extends MapReduceBase implements Reducer<Text, IntWritable, Text, IntWritable> {
    Trace trace;
  }

  private static List<String> trace(boolean hadoops, List<Writable[]> records, RawComparator<Text> grouping,
                                    Supplier<Traced> reducer) throws IOException {
    Configuration conf = new Configuration();
    Trace trace = new Trace();
    GenericCounter groups = new GenericCounter("groups", "groups");
    GenericCounter inputRecords = new GenericCounter("records", "records");
    OutputCollector<Text, IntWritable> out = (k, v) -> trace.events.add("collect " + k + "=" + v);
    Traced r = reducer.get();
    r.trace = trace;
    StreamedRecords input = new StreamedRecords(records);
    if (hadoops) {
      HadoopOldApiReduce.run(input, grouping, Text.class, IntWritable.class, conf, r, out, groups,
          inputRecords);
    } else {
      new OldApiValues<>(input, grouping, Text.class, IntWritable.class, new AttemptSerializations(conf),
          inputRecords, Reporter.NULL).reduceAll(r, out, Reporter.NULL, groups);
      r.close();
    }
    trace.events.add("groups " + groups.getValue() + ", input records " + inputRecords.getValue());
    return trace.events;
  }

  private static void assertSameAsHadoop(List<Writable[]> records, RawComparator<Text> grouping,
                                         Supplier<Traced> reducer) throws IOException {
    List<String> hadoop = trace(true, records, grouping, reducer);
    List<String> vivace = trace(false, records, grouping, reducer);
    assertTrue(hadoop.size() > 20, "the reducer saw the records: " + hadoop.size());
    assertEquals(hadoop, vivace);
  }

  public static class Sum extends Traced {
    @Override
    public void reduce(Text key, Iterator<IntWritable> values, OutputCollector<Text, IntWritable> out,
                       Reporter reporter) throws IOException {
      int sum = 0;
      while (values.hasNext()) {
        IntWritable v = values.next();
        trace.saw("value", key, v);
        sum += v.get();
      }
      out.collect(key, new IntWritable(sum));
    }
  }

  @Test
  void summingReducerSeesWhatHadoopsReduceTaskGives() throws Exception {
    assertSameAsHadoop(BufferedRunContextTest.words(1, 3000, 200), BufferedRunContextTest.textOrder(), Sum::new);
  }

  /** Reads one value of some keys, none of others, and one too many of the rest. */
  public static class Partly extends Traced {
    private int group;

    @Override
    public void reduce(Text key, Iterator<IntWritable> values, OutputCollector<Text, IntWritable> out,
                       Reporter reporter) {
      int g = group++ % 3;
      if (g == 0) {
        trace.saw("first", key, values.next());
      } else if (g == 1) {
        trace.events.add("none " + key);
      } else {
        try {
          while (true) {
            trace.saw("value", key, values.next());
          }
        } catch (NoSuchElementException e) {
          trace.events.add("past the last value: " + e.getMessage());
        }
      }
    }
  }

  @Test
  void onlyValuesReadAreCountedAsHadoopCountsThem() throws Exception {
    assertSameAsHadoop(BufferedRunContextTest.words(2, 2000, 50), BufferedRunContextTest.textOrder(),
        Partly::new);
  }

  @Test
  void aRawOnlyGroupingComparatorGroupsByItsObjectComparisonAsHadoopDoes() throws Exception {
    // FirstLetter overrides only the raw comparison: Hadoop's old API compares the key objects
    assertSameAsHadoop(BufferedRunContextTest.words(4, 2000, 300), new BufferedRunContextTest.FirstLetter(),
        Sum::new);
  }

  /** Groups by first letter on the key objects: the group's first key stays the reducer's key. */
  static final class FirstLetterObjects extends WritableComparator {
    FirstLetterObjects() {
      super(Text.class, true);
    }

    @Override
    @SuppressWarnings("rawtypes")
    public int compare(WritableComparable a, WritableComparable b) {
      String x = a.toString();
      String y = b.toString();
      return Integer.compare(x.isEmpty() ? -1 : x.charAt(0), y.isEmpty() ? -1 : y.charAt(0));
    }
  }

  @Test
  void groupsCompareEachKeyWithTheGroupsFirstKeyObject() throws Exception {
    assertSameAsHadoop(BufferedRunContextTest.words(5, 2000, 300), new FirstLetterObjects(), Sum::new);
  }
}
