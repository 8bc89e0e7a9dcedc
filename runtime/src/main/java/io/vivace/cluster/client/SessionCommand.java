package io.vivace.cluster.client;

import io.vivace.conf.VivaceConf;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.apache.hadoop.yarn.api.records.ApplicationReport;

/**
 * {@code ./vivace session start|list|stop [name or application id]}: the user's Vivace sessions on
 * the YARN cluster of the client configuration ({@code HADOOP_CONF_DIR}, or {@code -conf FILE}),
 * managed by hand. Jobs with {@code vivace.master=yarn} start one themselves when none runs.
 */
public final class SessionCommand extends Configured implements Tool {

  static final String USAGE = "Usage: vivace session [generic options] start [NAME] | list | stop [NAME|APPLICATION_ID]";

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
        ApplicationReport session = SessionClient.start(conf, name);
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
}
