package io.vivace.exec;

import static io.vivace.testing.JobFixtures.LOCAL;
import static io.vivace.testing.JobFixtures.VIVACE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.testing.JobFixtures;
import io.vivace.testing.JobFixtures.FinishedJob;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableComparable;
import org.apache.hadoop.io.WritableComparator;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Partitioner;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sorting and grouping through whole jobs on Vivace: secondary sort with distinct sort and
 * grouping comparators, custom key types with and without a registered raw comparator, and
 * non-Writable map output through {@code io.serializations} with its own comparator.
 */
class EmbeddedJobSortingTest {

  @TempDir
  Path root;

  private static Job newJob(Configuration conf, org.apache.hadoop.fs.Path in, org.apache.hadoop.fs.Path out,
                            String name) throws IOException {
    Job job = Job.getInstance(conf, name);
    FileInputFormat.addInputPath(job, in);
    FileOutputFormat.setOutputPath(job, out);
    return job;
  }

  // ---- secondary sort ---------------------------------------------------------------------

  /** Keys "group|seq": the group part of a key. */
  static String group(String key) {
    return key.substring(0, key.indexOf('|'));
  }

  static int seq(String key) {
    return Integer.parseInt(key.substring(key.indexOf('|') + 1));
  }

  /** Sort order: group ascending, then sequence number descending. */
  public static class GroupAscSeqDescComparator extends WritableComparator {
    public GroupAscSeqDescComparator() {
      super(Text.class, true);
    }

    @Override
    @SuppressWarnings("rawtypes")
    public int compare(WritableComparable a, WritableComparable b) {
      String x = a.toString();
      String y = b.toString();
      int c = group(x).compareTo(group(y));
      return c != 0 ? c : Integer.compare(seq(y), seq(x));
    }
  }

  /** Grouping: the group part only. */
  public static class GroupOnlyComparator extends WritableComparator {
    public GroupOnlyComparator() {
      super(Text.class, true);
    }

    @Override
    @SuppressWarnings("rawtypes")
    public int compare(WritableComparable a, WritableComparable b) {
      return group(a.toString()).compareTo(group(b.toString()));
    }
  }

  public static class GroupPartitioner extends Partitioner<Text, IntWritable> {
    @Override
    public int getPartition(Text key, IntWritable value, int partitions) {
      return (group(key.toString()).hashCode() & Integer.MAX_VALUE) % partitions;
    }
  }

  /** Input lines "group seq": emits ("group|seq", seq). */
  public static class CompositeKeyMapper extends Mapper<LongWritable, Text, Text, IntWritable> {
    @Override
    protected void map(LongWritable offset, Text line, Context context) throws IOException, InterruptedException {
      String[] f = line.toString().split(" ");
      context.write(new Text(f[0] + "|" + f[1]), new IntWritable(Integer.parseInt(f[1])));
    }
  }

  /** Emits "group  count  first-key  last-key  values-in-order" for each reduce call. */
  public static class SequenceReducer extends Reducer<Text, IntWritable, Text, Text> {
    @Override
    protected void reduce(Text key, Iterable<IntWritable> values, Context context)
        throws IOException, InterruptedException {
      String firstKey = key.toString();
      StringBuilder seqs = new StringBuilder();
      int count = 0;
      for (IntWritable v : values) {
        seqs.append(count++ == 0 ? "" : ",").append(v.get());
      }
      // Hadoop moves the key along with the values: now it is the key of the last value
      context.write(new Text(group(firstKey)), new Text(count + "\t" + firstKey + "\t" + key + "\t" + seqs));
    }
  }

  private static Job secondarySortJob(Configuration conf, org.apache.hadoop.fs.Path in,
                                      org.apache.hadoop.fs.Path out) throws IOException {
    Job job = newJob(conf, in, out, "secondary sort");
    job.setMapperClass(CompositeKeyMapper.class);
    job.setReducerClass(SequenceReducer.class);
    job.setPartitionerClass(GroupPartitioner.class);
    job.setSortComparatorClass(GroupAscSeqDescComparator.class);
    job.setGroupingComparatorClass(GroupOnlyComparator.class);
    job.setMapOutputKeyClass(Text.class);
    job.setMapOutputValueClass(IntWritable.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(Text.class);
    job.setNumReduceTasks(3);
    return job;
  }

  @Test
  void secondarySortGroupsBySortOrderNotByGroupingEquality() throws Exception {
    Path input = root.resolve("input");
    Random random = new Random(42);
    Map<String, List<Integer>> byGroup = new TreeMap<>();
    for (int f = 0; f < 2; f++) {
      List<String> lines = new ArrayList<>();
      for (int i = 0; i < 1_500; i++) {
        String g = "g" + random.nextInt(40);
        int s = random.nextInt(100_000);
        lines.add(g + " " + s);
        byGroup.computeIfAbsent(g, k -> new ArrayList<>()).add(s);
      }
      JobFixtures.writeInputLines(input.resolve("part" + f), lines);
    }
    FinishedJob vivace = JobFixtures.runNewApiJob(VIVACE, root, input, EmbeddedJobSortingTest::secondarySortJob);
    assertTrue(vivace.succeeded());

    List<String> expected = new ArrayList<>();
    byGroup.forEach((g, seqs) -> {
      List<Integer> desc = new ArrayList<>(seqs);
      desc.sort(Comparator.reverseOrder());
      StringBuilder joined = new StringBuilder();
      for (int i = 0; i < desc.size(); i++) {
        joined.append(i == 0 ? "" : ",").append(desc.get(i));
      }
      expected.add(g + "\t" + desc.size() + "\t" + g + "|" + desc.get(0) + "\t" + g + "|"
          + desc.get(desc.size() - 1) + "\t" + joined);
    });
    List<String> got = new ArrayList<>(vivace.lines());
    got.sort(null);
    assertEquals(expected, got, "one reduce call per group, values in sort-comparator order");
    assertEquals(byGroup.size(), vivace.counter(TaskCounter.REDUCE_INPUT_GROUPS));
    assertEquals(3_000, vivace.counter(TaskCounter.REDUCE_INPUT_RECORDS));

    FinishedJob local = JobFixtures.runNewApiJob(LOCAL, root, input, EmbeddedJobSortingTest::secondarySortJob);
    assertEquals(local.parts(), vivace.parts());
    assertEquals(local.counter(TaskCounter.REDUCE_INPUT_GROUPS), vivace.counter(TaskCounter.REDUCE_INPUT_GROUPS));
  }

  // ---- custom key types --------------------------------------------------------------------

  /** A custom key with a raw comparator registered through {@link WritableComparator#define}. */
  public static class RawComparedKey implements WritableComparable<RawComparedKey> {
    static final AtomicLong RAW_COMPARISONS = new AtomicLong();

    static {
      WritableComparator.define(RawComparedKey.class, new Raw());
    }

    int first;
    long second;

    public RawComparedKey() {
    }

    RawComparedKey(int first, long second) {
      this.first = first;
      this.second = second;
    }

    @Override
    public void write(DataOutput out) throws IOException {
      out.writeInt(first);
      out.writeLong(second);
    }

    @Override
    public void readFields(DataInput in) throws IOException {
      first = in.readInt();
      second = in.readLong();
    }

    @Override
    public int compareTo(RawComparedKey o) {
      int c = Integer.compare(first, o.first);
      return c != 0 ? c : Long.compare(second, o.second);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof RawComparedKey k && k.first == first && k.second == second;
    }

    @Override
    public int hashCode() {
      return 31 * first + Long.hashCode(second);
    }

    @Override
    public String toString() {
      return first + ":" + second;
    }

    /** Compares the serialised form without deserialising. */
    public static class Raw extends WritableComparator {
      public Raw() {
        super(RawComparedKey.class);
      }

      @Override
      public int compare(byte[] b1, int s1, int l1, byte[] b2, int s2, int l2) {
        RAW_COMPARISONS.incrementAndGet();
        int c = Integer.compare(readInt(b1, s1), readInt(b2, s2));
        return c != 0 ? c : Long.compare(readLong(b1, s1 + 4), readLong(b2, s2 + 4));
      }
    }
  }

  /** The same key without a registered comparator: Hadoop compares deserialised instances. */
  public static class PlainKey implements WritableComparable<PlainKey> {
    int first;
    long second;

    @Override
    public void write(DataOutput out) throws IOException {
      out.writeInt(first);
      out.writeLong(second);
    }

    @Override
    public void readFields(DataInput in) throws IOException {
      first = in.readInt();
      second = in.readLong();
    }

    @Override
    public int compareTo(PlainKey o) {
      int c = Integer.compare(first, o.first);
      return c != 0 ? c : Long.compare(second, o.second);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof PlainKey k && k.first == first && k.second == second;
    }

    @Override
    public int hashCode() {
      return 31 * first + Long.hashCode(second);
    }

    @Override
    public String toString() {
      return first + ":" + second;
    }
  }

  /** Input lines "first second": emits the pair as a key of the configured class, with a 1. */
  public static class PairKeyMapper extends Mapper<LongWritable, Text, WritableComparable<?>, IntWritable> {
    private boolean raw;

    @Override
    protected void setup(Context context) {
      raw = context.getMapOutputKeyClass() == RawComparedKey.class;
    }

    @Override
    protected void map(LongWritable offset, Text line, Context context) throws IOException, InterruptedException {
      String[] f = line.toString().split(" ");
      int first = Integer.parseInt(f[0]);
      long second = Long.parseLong(f[1]);
      if (raw) {
        context.write(new RawComparedKey(first, second), new IntWritable(1));
      } else {
        PlainKey k = new PlainKey();
        k.first = first;
        k.second = second;
        context.write(k, new IntWritable(1));
      }
    }
  }

  /** Sums the counts of a key. */
  public static class CountReducer extends Reducer<WritableComparable<?>, IntWritable, Text, IntWritable> {
    @Override
    protected void reduce(WritableComparable<?> key, Iterable<IntWritable> values, Context context)
        throws IOException, InterruptedException {
      int n = 0;
      for (IntWritable v : values) {
        n += v.get();
      }
      context.write(new Text(key.toString()), new IntWritable(n));
    }
  }

  private static Job pairKeyJob(Configuration conf, org.apache.hadoop.fs.Path in, org.apache.hadoop.fs.Path out,
                                Class<?> keyClass) throws IOException {
    Job job = newJob(conf, in, out, "custom key " + keyClass.getSimpleName());
    job.setMapperClass(PairKeyMapper.class);
    job.setReducerClass(CountReducer.class);
    job.setMapOutputKeyClass(keyClass);
    job.setMapOutputValueClass(IntWritable.class);
    if (keyClass == RawComparedKey.class) {
      // the test counts the comparator's calls in a static field: its classes are shared with the
      // tasks (a whole class and its nested ones: the mapper uses the key's package-private members)
      job.getConfiguration().set("mapreduce.job.classloader.system.classes",
          EmbeddedJobSortingTest.class.getName());
    }
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(IntWritable.class);
    job.setNumReduceTasks(2);
    return job;
  }

  private static void checkCustomKeyJob(Path root, Class<?> keyClass) throws Exception {
    checkCustomKeyJob(root, keyClass, () -> { });
  }

  /** {@code afterVivace} runs between the job's run on Vivace and on LocalJobRunner. */
  private static void checkCustomKeyJob(Path root, Class<?> keyClass, Runnable afterVivace) throws Exception {
    Path input = root.resolve("input");
    Random random = new Random(7);
    Comparator<long[]> order = Comparator.<long[]>comparingLong(p -> p[0]).thenComparingLong(p -> p[1]);
    List<Map<long[], Integer>> expected = List.of(new TreeMap<>(order), new TreeMap<>(order));
    for (int f = 0; f < 3; f++) {
      List<String> lines = new ArrayList<>();
      for (int i = 0; i < 5_000; i++) {
        int first = random.nextInt(200) - 100;
        long second = random.nextLong() % 50;
        lines.add(first + " " + second);
        int partition = ((31 * first + Long.hashCode(second)) & Integer.MAX_VALUE) % 2;
        expected.get(partition).merge(new long[] {first, second}, 1, Integer::sum);
      }
      JobFixtures.writeInputLines(input.resolve("pairs" + f), lines);
    }
    FinishedJob vivace = JobFixtures.runNewApiJob(VIVACE, root, input,
        (conf, in, out) -> pairKeyJob(conf, in, out, keyClass));
    assertTrue(vivace.succeeded(), () -> failureInfo(vivace));
    afterVivace.run();
    for (int r = 0; r < 2; r++) {
      List<String> lines = new ArrayList<>();
      expected.get(r).forEach((k, n) -> lines.add(k[0] + ":" + k[1] + "\t" + n));
      assertEquals(lines, vivace.parts().get("part-r-0000" + r), "reducer " + r + " in key order");
    }
    FinishedJob local = JobFixtures.runNewApiJob(LOCAL, root, input,
        (conf, in, out) -> pairKeyJob(conf, in, out, keyClass));
    assertEquals(local.parts(), vivace.parts());
  }

  private static String failureInfo(FinishedJob job) {
    try {
      return job.job().getStatus().getFailureInfo();
    } catch (IOException | InterruptedException e) {
      return e.toString();
    }
  }

  @Test
  void customKeyWithARegisteredRawComparator() throws Exception {
    long before = RawComparedKey.RAW_COMPARISONS.get();
    checkCustomKeyJob(root.resolve("shared"), RawComparedKey.class, () -> assertTrue(
        RawComparedKey.RAW_COMPARISONS.get() > before, "the registered raw comparator sorted the keys on Vivace"));
  }

  @Test
  void customKeyWithoutARawComparator() throws Exception {
    checkCustomKeyJob(root, PlainKey.class);
  }

  // ---- non-Writable map output through io.serializations ----------------------------------

  /** Emits (word, 1L) as plain Java String and Long objects. */
  public static class JavaObjectMapper extends Mapper<LongWritable, Text, String, Long> {
    @Override
    protected void map(LongWritable offset, Text line, Context context) throws IOException, InterruptedException {
      for (String w : line.toString().split(" ")) {
        context.write(w, 1L);
      }
    }
  }

  /** Sums Long values of String keys. */
  public static class JavaObjectReducer extends Reducer<String, Long, Text, LongWritable> {
    @Override
    protected void reduce(String key, Iterable<Long> values, Context context) throws IOException, InterruptedException {
      long sum = 0;
      for (Long v : values) {
        sum += v;
      }
      context.write(new Text(key), new LongWritable(sum));
    }
  }

  @Tag("slow")
  @Test
  void javaSerializedMapOutputWithItsOwnComparator() throws Exception {
    Path input = root.resolve("input");
    Random random = new Random(3);
    Map<String, Long> counts = new TreeMap<>();
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 2_000; i++) {
      String a = "j" + random.nextInt(300);
      String b = "k" + random.nextInt(30);
      counts.merge(a, 1L, Long::sum);
      counts.merge(b, 1L, Long::sum);
      lines.add(a + " " + b);
    }
    JobFixtures.writeInputLines(input.resolve("words"), lines);
    JobFixtures.NewApiJobSpec spec = (conf, in, out) -> {
      conf.setStrings("io.serializations", "org.apache.hadoop.io.serializer.JavaSerialization",
          "org.apache.hadoop.io.serializer.WritableSerialization");
      Job job = newJob(conf, in, out, "java serialization");
      job.setMapperClass(JavaObjectMapper.class);
      job.setReducerClass(JavaObjectReducer.class);
      job.setMapOutputKeyClass(String.class);
      job.setMapOutputValueClass(Long.class);
      job.setSortComparatorClass(org.apache.hadoop.io.serializer.JavaSerializationComparator.class);
      job.setOutputKeyClass(Text.class);
      job.setOutputValueClass(LongWritable.class);
      job.setNumReduceTasks(2);
      return job;
    };
    FinishedJob vivace = JobFixtures.runNewApiJob(VIVACE, root, input, spec);
    assertTrue(vivace.succeeded(), vivace.job().getStatus().getFailureInfo());
    List<String> expected = new ArrayList<>();
    counts.forEach((w, n) -> expected.add(w + "\t" + n));
    List<String> got = new ArrayList<>(vivace.lines());
    got.sort(null);
    assertEquals(expected, got);
    for (List<String> part : vivace.parts().values()) {
      List<String> sorted = new ArrayList<>(part);
      sorted.sort(Comparator.comparing(l -> l.substring(0, l.indexOf('\t'))));
      assertEquals(sorted, part, "each reducer's keys in String order");
    }
    FinishedJob local = JobFixtures.runNewApiJob(LOCAL, root, input, spec);
    assertEquals(local.parts(), vivace.parts());
  }
}
