package io.vivace.workloads.pagerank;

import io.vivace.workloads.BadRecords;
import io.vivace.workloads.TextJobs;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * PageRank by power iteration, one MapReduce job per iteration: {@code rank(p) = (1 - d) / N + d x
 * sum over the pages q linking to p of rank(q) / outdegree(q)}, starting from {@code 1 / N}. The
 * first job reads PageRankGen's {@code page TAB links} lines, later ones the previous iteration's
 * {@code page TAB rank TAB links}; iteration {@code i} writes to {@code OUT/iteration-i}. Stops
 * after {@code -iterations} jobs, or once the ranks changed by less than {@code -tolerance} in
 * all (the sum of absolute changes, counted by the reducers).
 *
 * <pre>pagerank -pages N [-iterations I (3)] [-damping D (0.85)] [-tolerance T (0)]
 *     [-reduces R (2)] IN OUT</pre>
 */
public class PageRank extends Configured implements Tool {

  public static final String PAGES = "vivace.pagerank.pages";
  public static final String DAMPING = "vivace.pagerank.damping";
  static final String GROUP = "vivace.pagerank";
  static final String CHANGE = "RANK_CHANGE_NANO";
  static final String USAGE = "usage: pagerank -pages N [-iterations I (3)] [-damping D (0.85)]"
      + " [-tolerance T (0)] [-reduces R (2)] IN OUT";

  /** How many iterations ran and the total rank change of the last one. */
  public record Result(int iterations, double change) {}

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new Configuration(), new PageRank(), args));
  }

  @Override
  public int run(String[] args) throws Exception {
    long pages = 0;
    int iterations = 3;
    int reduces = 2;
    double damping = 0.85;
    double tolerance = 0;
    int i = 0;
    try {
      for (; i < args.length - 2 && args[i].startsWith("-"); i += 2) {
        switch (args[i]) {
          case "-pages" -> pages = Long.parseLong(args[i + 1]);
          case "-iterations" -> iterations = Integer.parseInt(args[i + 1]);
          case "-damping" -> damping = Double.parseDouble(args[i + 1]);
          case "-tolerance" -> tolerance = Double.parseDouble(args[i + 1]);
          case "-reduces" -> reduces = Integer.parseInt(args[i + 1]);
          default -> throw new IllegalArgumentException("unknown option " + args[i]);
        }
      }
      if (args.length - i != 2 || pages < 1 || iterations < 1 || reduces < 1 || damping < 0
          || damping > 1) {
        throw new IllegalArgumentException("expected IN OUT, -pages of at least 1, iterations and"
            + " reduces at least 1, damping in [0, 1]");
      }
    } catch (IllegalArgumentException e) {
      System.err.println("pagerank: " + e.getMessage() + "; " + USAGE);
      return 2;
    }
    try {
      Result result = rank(new Path(args[i]), new Path(args[i + 1]), pages, iterations, damping,
          tolerance, reduces);
      System.out.println("pagerank: " + result.iterations() + " iterations, last change "
          + result.change());
      return 0;
    } catch (IOException e) {
      System.err.println("pagerank: " + e.getMessage());
      return 1;
    }
  }

  public Result rank(Path in, Path out, long pages, int iterations, double damping,
      double tolerance, int reduces) throws IOException, InterruptedException,
      ClassNotFoundException {
    Path input = in;
    double change = Double.MAX_VALUE;
    int done = 0;
    while (done < iterations && change > tolerance) {
      Path output = new Path(out, "iteration-" + done);
      Job job = createJob(input, output, pages, damping, reduces);
      if (!job.waitForCompletion(true)) {
        throw new IOException("pagerank iteration " + done + " failed: "
            + job.getStatus().getFailureInfo());
      }
      change = job.getCounters().findCounter(GROUP, CHANGE).getValue() / 1e9;
      input = output;
      done++;
    }
    return new Result(done, change);
  }

  public Job createJob(Path in, Path out, long pages, double damping, int reduces)
      throws IOException {
    Job job = TextJobs.create(getConf(), "pagerank", PageRank.class, in, out);
    Configuration conf = job.getConfiguration();
    conf.setLong(PAGES, pages);
    conf.setDouble(DAMPING, damping);
    job.setMapperClass(ContributionMapper.class);
    job.setReducerClass(RankReducer.class);
    job.setNumReduceTasks(reduces);
    job.setMapOutputKeyClass(LongWritable.class);
    job.setMapOutputValueClass(Text.class);
    job.setOutputKeyClass(LongWritable.class);
    job.setOutputValueClass(Text.class);
    return job;
  }

  /**
   * For a page: its links and old rank ({@code L rank TAB links}) to itself, and {@code R share}
   * to every page it links to.
   */
  public static class ContributionMapper extends Mapper<LongWritable, Text, LongWritable, Text> {
    private BadRecords badRecords;
    private double initialRank;
    private final LongWritable page = new LongWritable();
    private final Text value = new Text();

    @Override
    protected void setup(Context context) {
      badRecords = BadRecords.of(context.getConfiguration());
      initialRank = 1.0 / context.getConfiguration().getLong(PAGES, 1);
    }

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      PageLine parsed = PageLine.parse(line.toString(), initialRank);
      if (parsed == null) {
        badRecords.malformed(context, ((FileSplit) context.getInputSplit()).getPath() + " offset "
            + offset, "not 'page TAB [rank TAB] target,target,...'");
        return;
      }
      page.set(parsed.page());
      value.set("L" + parsed.rank() + "\t" + parsed.linksText());
      context.write(page, value);
      value.set("R" + parsed.rank() / parsed.links().length);
      for (long target : parsed.links()) {
        page.set(target);
        context.write(page, value);
      }
    }
  }

  /** The new rank from the shares; counts how much it changed. */
  public static class RankReducer extends Reducer<LongWritable, Text, LongWritable, Text> {
    private double base;
    private double damping;
    private final Text value = new Text();

    @Override
    protected void setup(Context context) {
      Configuration conf = context.getConfiguration();
      damping = conf.getDouble(DAMPING, 0.85);
      base = (1 - damping) / conf.getLong(PAGES, 1);
    }

    @Override
    protected void reduce(LongWritable page, Iterable<Text> values, Context context)
        throws IOException, InterruptedException {
      double sum = 0;
      String links = null;
      double oldRank = 0;
      for (Text text : values) {
        String v = text.toString();
        if (v.charAt(0) == 'L') {
          int tab = v.indexOf('\t');
          oldRank = Double.parseDouble(v.substring(1, tab));
          links = v.substring(tab + 1);
        } else {
          sum += Double.parseDouble(v.substring(1));
        }
      }
      if (links == null) {
        throw new IOException("page " + page + " is linked to but has no line of its own");
      }
      double rank = base + damping * sum;
      context.getCounter(GROUP, CHANGE).increment(Math.round(Math.abs(rank - oldRank) * 1e9));
      value.set(rank + "\t" + links);
      context.write(page, value);
    }
  }
}
