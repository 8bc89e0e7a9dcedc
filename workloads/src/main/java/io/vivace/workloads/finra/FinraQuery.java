package io.vivace.workloads.finra;

import io.vivace.workloads.BadRecords;
import io.vivace.workloads.TextJobs;
import java.io.IOException;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * The audit-trail query as a MapReduce job: {@code SELECT issue_symbol, orf_order_id,
 * orf_order_received_ts WHERE issue_symbol LIKE pattern AND the time in [from, to) ORDER BY
 * orf_order_received_ts} (ties by order id), into one part file of {@code symbol|id|ts} lines.
 * Malformed rows: see {@link BadRecords}.
 *
 * <pre>finraquery [-symbol PATTERN] [-from TIME] [-to TIME] IN OUT</pre>
 */
public class FinraQuery extends Configured implements Tool {

  static final String USAGE = "usage: finraquery [-symbol PATTERN] [-from TIME] [-to TIME] IN OUT"
      + " (TIME: ms since the epoch or an ISO-8601 instant; default: XLP over the generated day)";

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new Configuration(), new FinraQuery(), args));
  }

  @Override
  public int run(String[] args) throws Exception {
    QueryArgs query;
    try {
      query = QueryArgs.parse(args, 2);
      query.checkNoneLeft();
    } catch (IllegalArgumentException e) {
      System.err.println("finraquery: " + e.getMessage() + "; " + USAGE);
      return 2;
    }
    return createJob(query.filter(), new Path(query.rest()[0]), new Path(query.rest()[1]))
        .waitForCompletion(true) ? 0 : 1;
  }

  public Job createJob(QueryFilter filter, Path in, Path out) throws IOException {
    Job job = TextJobs.create(getConf(), "finraquery " + filter.symbolPattern(), FinraQuery.class, in, out);
    filter.set(job.getConfiguration());
    job.setMapperClass(SelectMapper.class);
    job.setReducerClass(OrderedReducer.class);
    job.setNumReduceTasks(1);
    job.setMapOutputKeyClass(Text.class);
    job.setMapOutputValueClass(Text.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(NullWritable.class);
    return job;
  }

  /** The selected rows' three columns, keyed for the order by time. */
  public static class SelectMapper extends Mapper<LongWritable, Text, Text, Text> {
    private BadRecords badRecords;
    private QueryFilter filter;
    private Pattern symbol;
    private final Text key = new Text();
    private final Text value = new Text();

    @Override
    protected void setup(Context context) {
      badRecords = BadRecords.of(context.getConfiguration());
      filter = QueryFilter.of(context.getConfiguration());
      symbol = filter.symbolRegex();
    }

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      OrderRow.Selected row = OrderRow.parse(line.toString());
      if (row == null) {
        badRecords.malformed(context, ((FileSplit) context.getInputSplit()).getPath()
            + " offset " + offset, "not a share-order row of " + OrderRow.COLUMNS
            + " '" + OrderRow.SEPARATOR + "'-separated columns with a numeric time");
        return;
      }
      if (filter.selects(symbol, row)) {
        key.set(QueryFilter.sortKey(row));
        value.set(QueryFilter.outputLine(row));
        context.write(key, value);
      }
    }
  }

  /** Writes the rows in key (= time, then id) order. */
  public static class OrderedReducer extends Reducer<Text, Text, Text, NullWritable> {
    @Override
    protected void reduce(Text key, Iterable<Text> lines, Context context)
        throws IOException, InterruptedException {
      for (Text line : lines) {
        context.write(line, NullWritable.get());
      }
    }
  }
}
