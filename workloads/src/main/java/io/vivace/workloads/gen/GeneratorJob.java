package io.vivace.workloads.gen;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;

/**
 * The command line and the job of a text generator: {@code [-maps N] [-seed S] BYTES OUT}, a
 * map-only job of {@code N} maps ({@link IndexSplitInputFormat}) writing lines, one file per map.
 * ({@code -maps}, not {@code -files}: that is one of ToolRunner's generic options.)
 */
public record GeneratorJob(int maps, long seed, long bytes, Path out) {

  public static final String SEED = "vivace.gen.seed";
  public static final String BYTES = "vivace.gen.bytes";

  /** Parses the arguments; an {@link IllegalArgumentException} says what is wrong. */
  public static GeneratorJob parse(String[] args) {
    int maps = 2;
    long seed = 0;
    int i = 0;
    try {
      for (; i < args.length && args[i].startsWith("-"); i += 2) {
        switch (args[i]) {
          case "-maps" -> maps = Integer.parseInt(args[i + 1]);
          case "-seed" -> seed = Long.parseLong(args[i + 1]);
          default -> throw new IllegalArgumentException("unknown option " + args[i]);
        }
      }
      if (args.length - i != 2) {
        throw new IllegalArgumentException("expected BYTES OUT after the options");
      }
      long bytes = Long.parseLong(args[i]);
      if (maps < 1 || bytes < 1) {
        throw new IllegalArgumentException("-maps and BYTES must be at least 1");
      }
      return new GeneratorJob(maps, seed, bytes, new Path(args[i + 1]));
    } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
      throw new IllegalArgumentException("not a number or missing value: " + e.getMessage(), e);
    }
  }

  /** A map-only job running {@code mapper} once per map, writing its lines as text to OUT. */
  public Job create(Configuration base, String name,
      Class<? extends Mapper<IntWritable, NullWritable, Text, NullWritable>> mapper)
      throws IOException {
    Job job = Job.getInstance(base, name);
    Configuration conf = job.getConfiguration();
    conf.setLong(SEED, seed);
    conf.setLong(BYTES, bytes);
    conf.setInt(IndexSplitInputFormat.SPLITS, maps);
    job.setJarByClass(mapper);
    job.setInputFormatClass(IndexSplitInputFormat.class);
    job.setMapperClass(mapper);
    job.setNumReduceTasks(0);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(NullWritable.class);
    job.setOutputFormatClass(TextOutputFormat.class);
    FileOutputFormat.setOutputPath(job, out);
    return job;
  }

  /** Parses, runs and waits: 0 when the job succeeded, 1 when it failed, 2 on bad arguments. */
  public static int run(Configuration conf, String name, String usage, String[] args,
      Class<? extends Mapper<IntWritable, NullWritable, Text, NullWritable>> mapper)
      throws IOException, InterruptedException, ClassNotFoundException {
    GeneratorJob generator;
    try {
      generator = parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(name + ": " + e.getMessage() + "; " + usage);
      return 2;
    }
    return generator.create(conf, name, mapper).waitForCompletion(true) ? 0 : 1;
  }

  /**
   * Arguments with {@code -profile NAME} taken out: {@code name} null when there was none. With a
   * profile, the amount comes from it: {@link #withAmount} puts it before OUT.
   */
  public record Profiled(String name, String[] args) {

    public static Profiled of(String[] args) {
      List<String> rest = new ArrayList<>(List.of(args));
      int at = rest.indexOf("-profile");
      if (at < 0) {
        return new Profiled(null, args);
      }
      if (at + 1 >= rest.size()) {
        throw new IllegalArgumentException("-profile has no value");
      }
      String name = rest.get(at + 1);
      rest.subList(at, at + 2).clear();
      return new Profiled(name, rest.toArray(new String[0]));
    }

    public String[] withAmount(long amount) {
      List<String> rest = new ArrayList<>(List.of(args));
      rest.add(Math.max(rest.size() - 1, 0), Long.toString(amount));
      return rest.toArray(new String[0]);
    }
  }

  /** The constant of enum {@code type} named {@code name} (any case); the error lists them. */
  public static <E extends Enum<E>> E profile(Class<E> type, String name) {
    for (E constant : type.getEnumConstants()) {
      if (constant.name().equalsIgnoreCase(name.trim())) {
        return constant;
      }
    }
    throw new IllegalArgumentException("unknown profile '" + name + "' (known: "
        + Arrays.toString(type.getEnumConstants()).toLowerCase(Locale.ROOT) + ")");
  }

  /** The random generator of split {@code split}: from the seed and the split only. */
  public static java.util.SplittableRandom random(Configuration conf, int split) {
    return new java.util.SplittableRandom(conf.getLong(SEED, 0) * 0x9E3779B97F4A7C15L + split);
  }

  /** The split's share of the bytes asked for. */
  public static RowRange share(Configuration conf, int split) {
    return RowRange.of(conf.getLong(BYTES, 0), conf.getInt(IndexSplitInputFormat.SPLITS, 1), split);
  }
}
