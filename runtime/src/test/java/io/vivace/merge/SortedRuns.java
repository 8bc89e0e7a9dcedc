package io.vivace.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.segment.SegmentWriter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;

/** Sorted runs of IntWritable keys and Text values for merge tests: made, written, read back, checked. */
public final class SortedRuns {

  private SortedRuns() {
  }

  /** A record: IntWritable key, Text value naming its segment and position. */
  public record KV(int key, String value) {
  }

  private static byte[] encodeInt(int v) throws IOException {
    DataOutputBuffer out = new DataOutputBuffer();
    new IntWritable(v).write(out);
    return java.util.Arrays.copyOf(out.getData(), out.getLength());
  }

  public static byte[] encodeText(String s) throws IOException {
    DataOutputBuffer out = new DataOutputBuffer();
    new Text(s).write(out);
    return java.util.Arrays.copyOf(out.getData(), out.getLength());
  }

  public static void append(SegmentWriter writer, KV kv) throws IOException {
    byte[] k = encodeInt(kv.key());
    byte[] v = encodeText(kv.value());
    writer.append(k, 0, k.length, v, 0, v.length);
  }

  /** A sorted run of {@code n} records with keys from {@code [0, keyRange)}, values "s<segment>#<i>". */
  public static List<KV> sortedRun(Random random, int segment, int n, int keyRange) {
    int[] keys = new int[n];
    for (int i = 0; i < n; i++) {
      keys[i] = random.nextInt(keyRange) - keyRange / 3; // negative keys exercise IntWritable's order
    }
    java.util.Arrays.sort(keys);
    List<KV> run = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      run.add(new KV(keys[i], "s" + segment + "#" + i));
    }
    return run;
  }

  public static List<KV> drain(MergingIterator it) throws IOException {
    List<KV> out = new ArrayList<>();
    while (it.next()) {
      IntWritable k = new IntWritable();
      Text v = new Text();
      k.readFields(it.getKey());
      v.readFields(it.getValue());
      out.add(new KV(k.get(), v.toString()));
    }
    return out;
  }

  /** The stable sort by key of the runs concatenated in segment order. */
  public static List<KV> stableMerge(List<List<KV>> runs) {
    List<KV> all = new ArrayList<>();
    runs.forEach(all::addAll);
    all.sort(Comparator.comparingInt(KV::key));
    return all;
  }

  public static void assertSortedPermutation(List<List<KV>> runs, List<KV> merged) {
    for (int i = 1; i < merged.size(); i++) {
      assertTrue(merged.get(i - 1).key() <= merged.get(i).key(), "merge output out of order at " + i);
    }
    Comparator<KV> total = Comparator.comparingInt(KV::key).thenComparing(KV::value);
    List<KV> expected = stableMerge(runs);
    expected.sort(total);
    List<KV> got = new ArrayList<>(merged);
    got.sort(total);
    assertEquals(expected, got, "the merge must output exactly its input records");
  }
}
