package io.vivace.cluster.client;

import io.vivace.cluster.rpc.SessionRpc;
import io.vivace.conf.VivaceConf;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.mapreduce.protocol.ClientProtocol;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.apache.hadoop.yarn.api.records.ApplicationReport;

/**
 * {@code ./vivace session start|list|stop [name or application id]}: the user's Vivace sessions on
 * the YARN cluster of the client configuration ({@code HADOOP_CONF_DIR}, or {@code -conf FILE}),
 * managed by hand. Jobs with {@code vivace.master=yarn} start one themselves when none runs;
 * {@code start} is refused while a session of its name runs. With
 * {@code vivace.session.start.wait.ms} above 0, {@code start} also waits until the session's
 * {@code vivace.session.executors.min} executors have joined it (a warm session), and stops the
 * session and fails when they have not within that time.
 */
public final class SessionCommand extends Configured implements Tool {

  static final String USAGE = "Usage: vivace session [generic options] start [NAME] | list | stop [NAME|APPLICATION_ID]";
  private static final String WAIT_KEY = "vivace.session.start.wait.ms";
  private static final long JOINED_POLL_MILLIS = 200;

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new Configuration(), new SessionCommand(), args));
  }

  @Override
  public int run(String[] args) throws Exception {
    if (args.length == 0 || args.length > 2) {
      System.err.println(USAGE);
      return 2;
    }
    Configuration conf = getConf();
    String name = args.length == 2 ? args[1] : VivaceConf.get(conf, "vivace.session.name");
    switch (args[0]) {
      case "start" -> {
        ApplicationReport session;
        try {
          session = SessionClient.start(conf, name);
        } catch (IOException e) {
          System.err.println("vivace session: " + e.getMessage());
          return 1;
        }
        long waitMillis = VivaceConf.getLong(conf, WAIT_KEY);
        if (waitMillis > 0) {
          String missing = awaitExecutors(conf, name, waitMillis);
          if (missing != null) {
            System.err.println("vivace session: " + session.getApplicationId() + " (" + name + ") " + missing
                + "; the session is stopped");
            SessionClient.stop(conf, session.getApplicationId().toString());
            return 1;
          }
        }
        System.out.println(session.getApplicationId() + "\t" + name + "\t" + session.getHost() + ":"
            + session.getRpcPort());
        return 0;
      }
      case "list" -> {
        List<ApplicationReport> sessions = SessionClient.list(conf);
        System.out.println("APPLICATION\tNAME\tSTATE\tADDRESS\tTRACKING");
        for (ApplicationReport s : sessions) {
          System.out.println(s.getApplicationId() + "\t" + SessionClient.sessionName(s) + "\t"
              + s.getYarnApplicationState() + "\t" + s.getHost() + ":" + s.getRpcPort() + "\t" + s.getTrackingUrl());
        }
        return 0;
      }
      case "stop" -> {
        if (SessionClient.stop(conf, name)) {
          return 0;
        }
        System.err.println("vivace session: no running session named or numbered " + name);
        return 1;
      }
      default -> {
        System.err.println("vivace session: unknown command: " + args[0] + "\n" + USAGE);
        return 2;
      }
    }
  }

  /**
   * Waits until the session named {@code name} has its {@code vivace.session.executors.min}
   * executors; null when it has them within {@code waitMillis}, else what it has.
   */
  private static String awaitExecutors(Configuration conf, String name, long waitMillis) throws IOException {
    int wanted = VivaceConf.getInt(conf, "vivace.session.executors.min");
    Configuration named = new Configuration(conf);
    named.set("vivace.session.name", name);
    ClientProtocol session = SessionClient.connect(named);
    try {
      long deadline = System.nanoTime() + waitMillis * 1_000_000L;
      while (true) {
        int joined = session.getClusterMetrics().getTaskTrackerCount();
        if (joined >= wanted) {
          return null;
        }
        if (System.nanoTime() >= deadline) {
          return "has " + joined + " of its " + wanted + " executors (vivace.session.executors.min) after "
              + waitMillis + " ms (" + WAIT_KEY + ")";
        }
        Thread.sleep(JOINED_POLL_MILLIS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for the executors of session " + name);
    } finally {
      SessionRpc.close(session);
    }
  }
}
