package io.vivace.jobs.pig;

import java.io.FileNotFoundException;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.apache.pig.ExecType;
import org.apache.pig.PigServer;
import org.apache.pig.backend.executionengine.ExecJob;
import org.apache.pig.backend.hadoop.datastorage.ConfigurationUtil;

/**
 * Runs a Pig Latin script of this jar in Pig's mapreduce mode, as a Java program that embeds Pig
 * does: {@link PigServer} with this Tool's configuration as the cluster's (so {@code -D} options
 * and the {@code mapreduce.framework.name} it names reach Pig's jobs), the script's parameters from the
 * command line. Usage: {@code PigScript <script resource> [name=value ...]}; exits 1 unless every
 * store of the script succeeded.
 */
public class PigScript extends Configured implements Tool {

  @Override
  public int run(String[] args) throws Exception {
    if (args.length < 1) {
      System.err.println("usage: PigScript <script> [name=value ...]");
      return 2;
    }
    Map<String, String> params = new LinkedHashMap<>();
    for (int i = 1; i < args.length; i++) {
      int eq = args[i].indexOf('=');
      if (eq <= 0) {
        System.err.println("not a name=value parameter: " + args[i]);
        return 2;
      }
      params.put(args[i].substring(0, eq), args[i].substring(eq + 1));
    }
    Properties properties = ConfigurationUtil.toProperties(getConf());
    // This configuration is the cluster's: Pig is not to look for a core-site.xml of its own.
    properties.setProperty("pig.use.overriden.hadoop.configs", "true");
    PigServer pig = new PigServer(ExecType.MAPREDUCE, properties);
    try (InputStream script = getClass().getResourceAsStream(args[0])) {
      if (script == null) {
        throw new FileNotFoundException("no script " + args[0] + " in the job jar");
      }
      pig.setBatchOn();
      pig.registerScript(script, params);
      List<ExecJob> stores = pig.executeBatch();
      boolean ok = !stores.isEmpty();
      for (ExecJob store : stores) {
        ok &= store.getStatus() == ExecJob.JOB_STATUS.COMPLETED;
      }
      return ok ? 0 : 1;
    } finally {
      pig.shutdown();
    }
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new PigScript(), args));
  }
}
