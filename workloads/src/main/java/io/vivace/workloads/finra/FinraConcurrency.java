package io.vivace.workloads.finra;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.vivace.workloads.CompletionPoll;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * The FINRA study's concurrency test: the query ({@link FinraQuery}) {@code I} times alone, one
 * after another (the isolated time is their median), then {@code N} streams at once, each issuing
 * queries one after another with a think time of a fraction of the isolated time between them,
 * for {@code Q} queries each or until {@code D} seconds have passed (a query started before then
 * runs to its end). Queries are timed submit to done with the client's completion poll at {@link
 * CompletionPoll}'s few ms on every framework. Prints and writes ({@code -json}) the isolated
 * time, the mean time under concurrency and their ratio ({@link ConcurrencySummary}). Query {@code
 * j} of stream {@code i} writes to {@code OUTROOT/s<i>-q<j>}, isolated run {@code k} to {@code
 * OUTROOT/isolated-<k>}.
 *
 * <pre>finraconcurrency [-streams N (5)] [-queries Q (2)] [-duration-s D] [-think-pct P (10)]
 *     [-isolated I (3)] [-symbol PATTERN] [-from TIME] [-to TIME] [-json FILE] IN OUTROOT</pre>
 */
public class FinraConcurrency extends Configured implements Tool {

  static final String USAGE = "usage: finraconcurrency [-streams N (5)] [-queries Q (2)]"
      + " [-duration-s D] [-think-pct P (10)] [-isolated I (3)] [-symbol PATTERN] [-from TIME] [-to TIME]"
      + " [-json FILE] IN OUTROOT";

  /** How many queries each stream issues: a count, or as many as start within a duration. */
  record Plan(int isolated, int streams, long queries, long durationMs, double thinkFraction) {
    boolean another(int issued, long startedNanos) {
      if (durationMs > 0) {
        return (System.nanoTime() - startedNanos) / 1_000_000 < durationMs;
      }
      return issued < queries;
    }
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new Configuration(), new FinraConcurrency(), args));
  }

  @Override
  public int run(String[] args) throws Exception {
    QueryArgs query;
    Plan plan;
    String json;
    try {
      query = QueryArgs.parse(args, 2);
      plan = new Plan((int) query.longOption("isolated", 3, 1),
          (int) query.longOption("streams", 5, 1), query.longOption("queries", 2, 1),
          query.longOption("duration-s", 0, 0) * 1000,
          query.longOption("think-pct", 10, 0) / 100.0);
      json = query.options().remove("json");
      query.checkNoneLeft();
    } catch (IllegalArgumentException e) {
      System.err.println("finraconcurrency: " + e.getMessage() + "; " + USAGE);
      return 2;
    }
    Path in = new Path(query.rest()[0]);
    Path root = new Path(query.rest()[1]);
    ConcurrencySummary summary = measure(query.filter(), plan, in, root);
    java.util.Map<String, Object> figures = summary.figures();
    figures.put("completion_poll_ms",
        CompletionPoll.timed(getConf()).getInt(CompletionPoll.KEY, -1));
    String report = new ObjectMapper().writerWithDefaultPrettyPrinter()
        .writeValueAsString(figures);
    System.out.println(report);
    if (json != null) {
      Files.writeString(java.nio.file.Path.of(json), report + "\n");
    }
    return 0;
  }

  /** Runs the isolated query and then the streams; throws if any query fails. */
  public ConcurrencySummary measure(QueryFilter filter, Plan plan, Path in, Path root)
      throws IOException, InterruptedException {
    List<Long> isolatedMs = new ArrayList<>();
    for (int k = 0; k < plan.isolated(); k++) {
      isolatedMs.add(timedQuery(filter, in, new Path(root, "isolated-" + k)));
    }
    long thinkMs = ConcurrencySummary.thinkMs(ConcurrencySummary.median(isolatedMs),
        plan.thinkFraction());
    ExecutorService pool = Executors.newFixedThreadPool(plan.streams());
    try {
      List<Future<List<Long>>> streams = new ArrayList<>();
      long started = System.nanoTime();
      for (int s = 0; s < plan.streams(); s++) {
        int stream = s;
        streams.add(pool.submit(() -> {
          List<Long> times = new ArrayList<>();
          for (int q = 0; plan.another(q, started); q++) {
            if (q > 0) {
              Thread.sleep(thinkMs);
            }
            times.add(timedQuery(filter, in, new Path(root, "s" + stream + "-q" + q)));
          }
          return times;
        }));
      }
      List<List<Long>> streamMs = new ArrayList<>();
      for (Future<List<Long>> stream : streams) {
        streamMs.add(stream.get());
      }
      return new ConcurrencySummary(isolatedMs, plan.thinkFraction(), streamMs);
    } catch (ExecutionException e) {
      throw new IOException("a query stream failed: " + e.getCause().getMessage(), e.getCause());
    } finally {
      pool.shutdownNow();
    }
  }

  /** Submit-to-done milliseconds of one query; throws when it fails. */
  private long timedQuery(QueryFilter filter, Path in, Path out)
      throws IOException, InterruptedException {
    FinraQuery query = new FinraQuery();
    query.setConf(CompletionPoll.timed(getConf()));
    Job job = query.createJob(filter, in, out);
    long start = System.nanoTime();
    boolean succeeded;
    try {
      succeeded = job.waitForCompletion(false);
    } catch (ClassNotFoundException e) {
      throw new IOException(e);
    }
    long ms = Math.max(1, (System.nanoTime() - start) / 1_000_000);
    if (!succeeded) {
      throw new IOException("query into " + out + " failed: " + job.getStatus().getFailureInfo());
    }
    return ms;
  }
}
