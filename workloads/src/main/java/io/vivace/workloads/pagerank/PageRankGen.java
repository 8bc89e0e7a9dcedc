package io.vivace.workloads.pagerank;

import io.vivace.workloads.gen.GeneratorJob;
import io.vivace.workloads.gen.RowRange;
import java.io.IOException;
import java.util.SplittableRandom;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * Writes a web graph for PageRank as a map-only job, HiBench-like: pages {@code 0..PAGES-1}, one a
 * line, {@code page TAB target,target,...}, each with 1 to {@value #MAX_LINKS} out-links whose
 * targets are Zipf-distributed (page {@code r} drawn with probability about proportional to
 * {@code 1 / (r + 1)}), never the page itself. {@code -profile} takes PAGES from a {@link
 * PageRankProfile}. The same seed, page count and map count give the same bytes.
 *
 * <pre>pagerankgen [-profile NAME] [-maps N] [-seed S] [PAGES] OUT</pre>
 */
public class PageRankGen extends Configured implements Tool {

  static final int MAX_LINKS = 15;
  static final String USAGE = "usage: pagerankgen [-profile tiny|small|large|huge] [-maps N]"
      + " [-seed S] [PAGES] OUT";

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new Configuration(), new PageRankGen(), args));
  }

  @Override
  public int run(String[] args) throws Exception {
    String[] resolved;
    try {
      resolved = PageRankProfile.expand(args);
    } catch (IllegalArgumentException e) {
      System.err.println("pagerankgen: " + e.getMessage() + "; " + USAGE);
      return 2;
    }
    return GeneratorJob.run(getConf(), "pagerankgen", USAGE, resolved, PageMapper.class);
  }

  /** A Zipf-like target in {@code [0, pages)}: inverse of the CDF {@code ln(r + 1) / ln(pages + 1)}. */
  static long target(SplittableRandom random, long pages) {
    long rank = (long) Math.floor(Math.exp(random.nextDouble() * Math.log(pages + 1.0))) - 1;
    return Math.min(Math.max(rank, 0), pages - 1);
  }

  /** Writes the split's pages with their out-links. */
  public static class PageMapper extends Mapper<IntWritable, NullWritable, Text, NullWritable> {
    @Override
    protected void map(IntWritable split, NullWritable ignored, Context context)
        throws IOException, InterruptedException {
      Configuration conf = context.getConfiguration();
      long pages = conf.getLong(GeneratorJob.BYTES, 0);
      RowRange range = GeneratorJob.share(conf, split.get());
      SplittableRandom random = GeneratorJob.random(conf, split.get());
      Text line = new Text();
      StringBuilder text = new StringBuilder();
      for (long page = range.first(); page < range.first() + range.count(); page++) {
        text.setLength(0);
        text.append(page).append('\t');
        int links = 1 + random.nextInt(MAX_LINKS);
        for (int l = 0; l < links; l++) {
          long target = target(random, pages);
          if (target == page) {
            target = (page + 1) % pages;
          }
          text.append(l > 0 ? "," : "").append(target);
        }
        line.set(text.toString());
        context.write(line, NullWritable.get());
      }
    }
  }
}
