package io.vivace.exec;

import static io.vivace.testing.JobFixtures.LOCAL;
import static io.vivace.testing.JobFixtures.VIVACE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.testing.JobFixtures;
import io.vivace.testing.JobFixtures.FinishedJob;
import io.vivace.testing.JobFixtures.FinishedOldApiJob;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.compress.CodecPool;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.SnappyCodec;
import org.apache.hadoop.mapred.FileInputFormat;
import org.apache.hadoop.mapred.FileOutputFormat;
import org.apache.hadoop.mapred.MapReduceBase;
import org.apache.hadoop.mapred.OutputCollector;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.map.TokenCounterMapper;
import org.apache.hadoop.mapreduce.lib.reduce.IntSumReducer;
import org.apache.hadoop.util.ReflectionUtils;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Jobs with {@code mapreduce.map.output.compress}, on each codec Hadoop ships that works without
 * libhadoop: a word count with a combiner whose maps spill many times from a 1 MB buffer and merge
 * two runs at a time, so map-side and reduce-side merges read compressed segments, gives the same
 * output as the uncompressed job and as Apache's LocalJobRunner with the same settings; its
 * counters say what was compressed; a codec that cannot work fails the job before any task runs.
 */
class MapOutputCompressionJobTest {

  @TempDir
  Path root;

  private static final String[] WORDS = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta",
      "theta", "iota", "kappa", "lambda", "mu"};

  /** Three files of word lines, about 1.2 MB of map output each: several 1 MB spills per map. */
  private Path input() {
    Path input = root.resolve("input");
    Random random = new Random(42);
    for (int f = 0; f < 3; f++) {
      List<String> lines = new ArrayList<>();
      for (int i = 0; i < 12_000; i++) {
        StringBuilder line = new StringBuilder();
        for (int w = 0; w < 8; w++) {
          line.append(WORDS[random.nextInt(WORDS.length)]).append(random.nextInt(f == 2 ? 50 : 3_000)).append(' ');
        }
        lines.add(line.toString());
      }
      JobFixtures.writeInputLines(input.resolve("part" + f + ".txt"), lines);
    }
    return input;
  }

  private static JobFixtures.NewApiJobSpec wordCount(String codec) {
    return (conf, in, out) -> {
      conf.setInt(MRJobConfig.IO_SORT_MB, 1);
      conf.setInt(MRJobConfig.IO_SORT_FACTOR, 2);
      if (codec != null) {
        conf.setBoolean(MRJobConfig.MAP_OUTPUT_COMPRESS, true);
        conf.set(MRJobConfig.MAP_OUTPUT_COMPRESS_CODEC, "org.apache.hadoop.io.compress." + codec);
      }
      Job job = Job.getInstance(conf, "compressed word count");
      job.setMapperClass(TokenCounterMapper.class);
      job.setCombinerClass(IntSumReducer.class);
      job.setReducerClass(IntSumReducer.class);
      job.setOutputKeyClass(Text.class);
      job.setOutputValueClass(IntWritable.class);
      job.setNumReduceTasks(3);
      org.apache.hadoop.mapreduce.lib.input.FileInputFormat.addInputPath(job, in);
      org.apache.hadoop.mapreduce.lib.output.FileOutputFormat.setOutputPath(job, out);
      return job;
    };
  }

  private static CompressionCodec codecInstance(String codec) throws ClassNotFoundException {
    return (CompressionCodec) ReflectionUtils.newInstance(
        Class.forName("org.apache.hadoop.io.compress." + codec), new Configuration());
  }

  @Tag("slow")
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"DefaultCodec", "GzipCodec", "BZip2Codec", "SnappyCodec", "Lz4Codec"})
  void wordCountWithManySpillsMatchesUncompressedAndLocalJobRunner(String codec) throws Exception {
    Path input = input();
    CompressionCodec instance = codecInstance(codec);
    int compressors = CodecPool.getLeasedCompressorsCount(instance);
    int decompressors = CodecPool.getLeasedDecompressorsCount(instance);

    FinishedJob compressed = JobFixtures.runNewApiJob(VIVACE, root.resolve("compressed"), input, wordCount(codec));
    FinishedJob plain = JobFixtures.runNewApiJob(VIVACE, root.resolve("plain"), input, wordCount(null));
    FinishedJob local = JobFixtures.runNewApiJob(LOCAL, root.resolve("local"), input, wordCount(codec));
    assertTrue(compressed.succeeded(), compressed.job().getStatus().getFailureInfo());
    assertTrue(plain.succeeded() && local.succeeded());

    assertEquals(plain.parts(), compressed.parts(), "output of the uncompressed job");
    assertEquals(local.parts(), compressed.parts(), "output of LocalJobRunner with the same settings");
    assertEquals(compressors, CodecPool.getLeasedCompressorsCount(instance), "compressors given back");
    assertEquals(decompressors, CodecPool.getLeasedDecompressorsCount(instance), "decompressors given back");

    // the same records as the plain job (SPILLED_RECORDS may differ: merges take the smallest
    // segments first, and compressed sizes order them differently, as in Hadoop)
    for (TaskCounter c : new TaskCounter[] {TaskCounter.MAP_OUTPUT_RECORDS, TaskCounter.MAP_OUTPUT_BYTES,
        TaskCounter.COMBINE_INPUT_RECORDS, TaskCounter.COMBINE_OUTPUT_RECORDS,
        TaskCounter.REDUCE_INPUT_RECORDS}) {
      assertEquals(plain.counter(c), compressed.counter(c), c.name());
    }
    assertTrue(compressed.counter(TaskCounter.SPILLED_RECORDS) > compressed.counter(TaskCounter.REDUCE_INPUT_RECORDS),
        "maps spilled and merged: SPILLED_RECORDS=" + compressed.counter(TaskCounter.SPILLED_RECORDS));
    long materialized = compressed.counter(TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES);
    assertTrue(materialized < plain.counter(TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES) * 3 / 4,
        "compressed " + materialized + " vs raw " + plain.counter(TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES));
    // as in Hadoop, reducers fetch what the maps materialised: compressed bytes
    assertEquals(materialized, compressed.counter(TaskCounter.REDUCE_SHUFFLE_BYTES));
    assertEquals(local.counter(TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES),
        local.counter(TaskCounter.REDUCE_SHUFFLE_BYTES));
    // spills, merges and outputs reach the local disk compressed: fewer bytes written than raw
    assertTrue(fileBytesWritten(compressed) < fileBytesWritten(plain),
        "FILE_BYTES_WRITTEN " + fileBytesWritten(compressed) + " vs raw " + fileBytesWritten(plain));
  }

  private static long fileBytesWritten(FinishedJob job) {
    return job.counters().findCounter("file", org.apache.hadoop.mapreduce.FileSystemCounter.BYTES_WRITTEN)
        .getValue();
  }

  // ---- old API --------------------------------------------------------------------------

  /** Old-API word count: one record per word. */
  public static class WordMapper extends MapReduceBase
      implements org.apache.hadoop.mapred.Mapper<LongWritable, Text, Text, IntWritable> {
    private final IntWritable one = new IntWritable(1);
    private final Text word = new Text();

    @Override
    public void map(LongWritable key, Text line, OutputCollector<Text, IntWritable> out, Reporter reporter)
        throws IOException {
      for (String w : line.toString().split(" ")) {
        if (!w.isEmpty()) {
          word.set(w);
          out.collect(word, one);
        }
      }
    }
  }

  /** Old-API sum. */
  public static class SumReducer extends MapReduceBase
      implements org.apache.hadoop.mapred.Reducer<Text, IntWritable, Text, IntWritable> {
    @Override
    public void reduce(Text key, Iterator<IntWritable> values, OutputCollector<Text, IntWritable> out,
                       Reporter reporter) throws IOException {
      int sum = 0;
      while (values.hasNext()) {
        sum += values.next().get();
      }
      out.collect(key, new IntWritable(sum));
    }
  }

  @Test
  void oldApiJobsCompressWithJobConfsSetters() throws Exception {
    Path input = input();
    JobFixtures.OldApiJobSpec spec = (conf, in, out) -> {
      conf.setCompressMapOutput(true);
      conf.setMapOutputCompressorClass(SnappyCodec.class);
      conf.setMapperClass(WordMapper.class);
      conf.setCombinerClass(SumReducer.class);
      conf.setReducerClass(SumReducer.class);
      conf.setOutputKeyClass(Text.class);
      conf.setOutputValueClass(IntWritable.class);
      conf.setNumReduceTasks(2);
      FileInputFormat.addInputPath(conf, in);
      FileOutputFormat.setOutputPath(conf, out);
    };
    FinishedOldApiJob vivace = JobFixtures.runOldApiJob(VIVACE, root.resolve("v"), input, spec);
    FinishedOldApiJob local = JobFixtures.runOldApiJob(LOCAL, root.resolve("l"), input, spec);
    assertEquals(local.parts(), vivace.parts());
    assertTrue(vivace.counter(TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES)
        < vivace.counter(TaskCounter.MAP_OUTPUT_BYTES));
  }

  // ---- a codec that cannot work ------------------------------------------------------------

  @Test
  void aMapOnlyJobIgnoresTheCodecAsHadoopDoes() throws Exception {
    Path input = input();
    FinishedJob job = JobFixtures.runNewApiJob(VIVACE, root, input, (conf, in, out) -> {
      Job j = wordCount(null).build(conf, in, out);
      j.setNumReduceTasks(0);
      j.getConfiguration().setBoolean(MRJobConfig.MAP_OUTPUT_COMPRESS, true);
      j.getConfiguration().set(MRJobConfig.MAP_OUTPUT_COMPRESS_CODEC, "com.example.NoSuchCodec");
      return j;
    });
    assertTrue(job.succeeded(), "no map output to compress: " + job.job().getStatus().getFailureInfo());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"org.apache.hadoop.io.compress.ZStandardCodec", "com.example.NoSuchCodec",
      "org.apache.hadoop.io.Text"})
  void anUnusableCodecFailsTheJobNamingTheKeyAndClass(String codecClass) throws Exception {
    Path input = input();
    FinishedJob job = JobFixtures.runNewApiJob(VIVACE, root, input, (conf, in, out) -> {
      Job j = wordCount(null).build(conf, in, out);
      j.getConfiguration().setBoolean(MRJobConfig.MAP_OUTPUT_COMPRESS, true);
      j.getConfiguration().set(MRJobConfig.MAP_OUTPUT_COMPRESS_CODEC, codecClass);
      return j;
    });
    assertFalse(job.succeeded());
    String info = job.job().getStatus().getFailureInfo();
    assertTrue(info.contains(MRJobConfig.MAP_OUTPUT_COMPRESS_CODEC + "=" + codecClass), info);
    assertTrue(info.contains(MRJobConfig.MAP_OUTPUT_COMPRESS + "=true"), info);
    assertEquals(0, job.counter(JobCounter.TOTAL_LAUNCHED_MAPS), "failed before any map ran");
    assertFalse(Files.exists(job.output()), "no output directory: the job failed before its setup");
  }
}
