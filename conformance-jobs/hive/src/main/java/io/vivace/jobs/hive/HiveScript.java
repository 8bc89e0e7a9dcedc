package io.vivace.jobs.hive;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.ql.IDriver;
import org.apache.hadoop.hive.ql.processors.CommandProcessor;
import org.apache.hadoop.hive.ql.processors.CommandProcessorException;
import org.apache.hadoop.hive.ql.processors.CommandProcessorFactory;
import org.apache.hadoop.hive.ql.session.SessionState;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * Runs a HiveQL script of this jar as {@code hive -f} runs one, on Hive's MapReduce engine, with
 * this Tool's configuration (its {@code -D} options, the {@code mapreduce.framework.name} it names)
 * under Hive's own settings, an embedded metastore on Derby and the warehouse in {@code <home>}.
 * Usage: {@code HiveScript <script resource>[,<script resource>...] <home> [name=value ...]}: the
 * scripts run one after the other in one session; each {@code name=value} is a
 * variable the script reads as {@code ${hivevar:name}}. Statements end with {@code ;} at the end of
 * a line; lines starting with {@code --} are comments. Exits 1 at the first statement that fails.
 */
public class HiveScript extends Configured implements Tool {

  @Override
  public int run(String[] args) throws Exception {
    if (args.length < 2) {
      System.err.println("usage: HiveScript <script>[,<script>...] <home> [name=value ...]");
      return 2;
    }
    List<String> statements = new ArrayList<>();
    for (String script : args[0].split(",")) {
      statements.addAll(statements(script));
    }
    Path home = Path.of(args[1]).toAbsolutePath();
    HiveConf conf = new HiveConf(getConf(), HiveScript.class);
    setUnlessGiven(conf, "hive.execution.engine", "mr");
    setUnlessGiven(conf, "hive.metastore.uris", "");
    setUnlessGiven(conf, "javax.jdo.option.ConnectionURL", "jdbc:derby:;databaseName=" + home.resolve("metastore_db") + ";create=true");
    setUnlessGiven(conf, "datanucleus.schema.autoCreateAll", "true");
    setUnlessGiven(conf, "hive.metastore.schema.verification", "false");
    setUnlessGiven(conf, "metastore.schema.verification", "false");
    setUnlessGiven(conf, "hive.metastore.warehouse.dir", home.resolve("warehouse").toUri().toString());
    setUnlessGiven(conf, "hive.exec.scratchdir", home.resolve("scratch").toString());
    setUnlessGiven(conf, "hive.exec.local.scratchdir", home.resolve("local-scratch").toString());
    setUnlessGiven(conf, "hive.downloaded.resources.dir", home.resolve("resources").toString());
    setUnlessGiven(conf, "hive.querylog.location", home.resolve("logs").toString());
    setUnlessGiven(conf, "derby.stream.error.file", home.resolve("derby.log").toString());

    SessionState session = SessionState.start(new SessionState(conf));
    try {
      Map<String, String> variables = session.getHiveVariables();
      for (int i = 2; i < args.length; i++) {
        int eq = args[i].indexOf('=');
        if (eq <= 0) {
          System.err.println("not a name=value variable: " + args[i]);
          return 2;
        }
        variables.put(args[i].substring(0, eq), args[i].substring(eq + 1));
      }
      for (String statement : statements) {
        if (!run(statement, conf)) {
          return 1;
        }
      }
      return 0;
    } finally {
      session.close();
    }
  }

  private static boolean run(String statement, HiveConf conf) throws Exception {
    String[] tokens = statement.trim().split("\\s+");
    try (CommandProcessor processor = CommandProcessorFactory.get(tokens, conf)) {
      String command = processor instanceof IDriver ? statement : statement.trim().substring(tokens[0].length());
      processor.run(command);
      return true;
    } catch (CommandProcessorException e) {
      System.err.println("FAILED: " + statement + "\n" + e.getMessage());
      return false;
    }
  }

  /** Sets what a hive-site.xml would, unless this Tool's own configuration (-D) gives it. */
  private void setUnlessGiven(HiveConf conf, String key, String value) {
    if (getConf().get(key) == null) {
      conf.set(key, value);
    }
  }

  private List<String> statements(String resource) throws IOException {
    String text;
    try (InputStream in = getClass().getResourceAsStream(resource)) {
      if (in == null) {
        throw new FileNotFoundException("no script " + resource + " in the job jar");
      }
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    List<String> statements = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    for (String line : text.split("\n")) {
      if (line.trim().startsWith("--") || line.isBlank()) {
        continue;
      }
      current.append(line).append('\n');
      if (line.trim().endsWith(";")) {
        String s = current.toString().trim();
        statements.add(s.substring(0, s.length() - 1));
        current.setLength(0);
      }
    }
    if (!current.toString().isBlank()) {
      statements.add(current.toString().trim());
    }
    return statements;
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new HiveScript(), args));
  }
}
