package io.vivace.cluster.session;

import io.vivace.cluster.ContainerSpec;
import io.vivace.cluster.executor.InJvmExecutor;
import io.vivace.cluster.rpc.ExecutorProtocol;
import io.vivace.cluster.rpc.SessionRpc;
import io.vivace.cluster.security.SessionAccess;
import io.vivace.cluster.security.SessionSecret;
import io.vivace.scheduler.JobRun;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.OutputFormat;
import org.apache.hadoop.mapreduce.lib.output.NullOutputFormat;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * The session's control plane alone, timed: a job of many maps of 1 ms each (as Hadoop's sleep job's)
 * run by the session's real master (jobs and dispatcher) on real executors in this JVM, over the
 * session's real RPC on loopback, or with the executors calling the dispatcher directly. No YARN,
 * no HDFS: what is left is each attempt's way from a free slot to its reported end.
 *
 * <p>{@code java ... SessionThroughputBench [maps] [executors] [slots] [rpc|direct] [rounds]}
 */
public final class SessionThroughputBench {

  private SessionThroughputBench() {
  }

  public static void main(String[] args) throws Exception {
    int maps = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
    int executors = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    int slots = args.length > 2 ? Integer.parseInt(args[2]) : 2;
    boolean rpc = args.length <= 3 || args[3].equals("rpc");
    int rounds = args.length > 4 ? Integer.parseInt(args[4]) : 5;
    Path dir = Files.createTempDirectory("vivace-throughput");
    try {
      run(dir, maps, executors, slots, rpc, rounds);
    } finally {
      FileUtil.fullyDelete(dir.toFile());
    }
    System.exit(0);
  }

  private static void run(Path dir, int maps, int executors, int slots, boolean rpc, int rounds) throws Exception {
    try (SessionHarness session = new SessionHarness(dir, 0)) {
      RPC.Server server = null;
      List<Object> proxies = new ArrayList<>();
      ExecutorProtocol master = session.dispatcher;
      SessionAccess access = new SessionAccess("application_1700000000000_0001",
          UserGroupInformation.getCurrentUser().getShortUserName(), SessionSecret.generate(), "the bench's secret");
      if (rpc) {
        ExecutorContainers pool = new ExecutorContainers(new ExecutorContainers.Settings(0, 4, 512, 1, 2,
            Long.MAX_VALUE), new ContainerSpec(Map.of(), "vivace-lib/*", List.of()), ByteBuffer.allocate(0),
            session.dispatcher, new FakeYarn());
        SessionMonitor monitor = new SessionMonitor(session.jobs, session.dispatcher, pool,
            new SessionMonitor.Timeouts(Long.MAX_VALUE / 2, Long.MAX_VALUE / 2, 500_000_000L, 10_000_000_000L));
        server = SessionRpc.server(new Configuration(false), "127.0.0.1", 8, access, session.jobs,
            session.dispatcher, monitor);
        server.start();
      }
      List<InJvmExecutor> started = new ArrayList<>();
      for (int i = 0; i < executors; i++) {
        if (rpc) {
          master = SessionRpc.proxy(ExecutorProtocol.class, NetUtils.getConnectAddress(server),
              new Configuration(false), access, UserGroupInformation.getCurrentUser());
          proxies.add(master);
        }
        Configuration conf = new Configuration();
        conf.set("fs.defaultFS", "file:///");
        conf.set(MRConfig.LOCAL_DIR, dir.resolve("executor-" + i).toString());
        started.add(InJvmExecutor.start(master, conf, "container_1_0001_01_00000" + (i + 2), slots));
      }
      for (int round = 0; round < rounds; round++) {
        long start = System.nanoTime();
        JobRun job = session.submit(maps, 0, conf -> {
          conf.setClass(MRJobConfig.MAP_CLASS_ATTR, MillisecondMapper.class, Mapper.class);
          conf.setClass(MRJobConfig.OUTPUT_FORMAT_CLASS_ATTR, NullOutputFormat.class, OutputFormat.class);
        });
        long submitted = System.nanoTime();
        SessionHarness.awaitEnd(job);
        long end = System.nanoTime();
        if (job.status().getState() != JobStatus.State.SUCCEEDED) {
          throw new IOException(job.id() + " " + job.status().getState() + ": " + job.status().getFailureInfo());
        }
        double seconds = (end - submitted) / 1e9;
        System.out.printf("round %d: %d maps on %d executors x %d slots (%s): staged and submitted in %.0f ms, "
                + "run in %.3f s, %.0f tasks/s%n", round, maps, executors, slots, rpc ? "rpc" : "direct",
            (submitted - start) / 1e6, seconds, maps / seconds);
      }
      session.dispatcher.shutDown();
      for (InJvmExecutor executor : started) {
        executor.awaitEnd();
      }
      proxies.forEach(SessionRpc::close);
      if (server != null) {
        server.stop();
      }
    }
  }

  /** Sleeps 1 ms, once, and writes nothing: a map of Hadoop's sleep job with {@code -mt 1}. */
  public static final class MillisecondMapper extends Mapper<LongWritable, Text, NullWritable, NullWritable> {
    @Override
    public void run(Context context) throws InterruptedException {
      Thread.sleep(1);
    }
  }
}
