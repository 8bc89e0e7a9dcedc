package io.vivace.realcluster;

import java.io.File;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Starts Apache's daemons as Apache's scripts do ({@code hdfs --daemon start namenode}): a JVM of
 * the installation's class path after the host's configuration folder, its log under the host's
 * {@code logs}, its pid in a file; here also on its host (its namespace and host name) and in a
 * session of its own, so that it outlives {@code up}. Its environment is a cluster node's, none of
 * the caller's (but for the JVM options in {@code HADOOP_OPTS}): the NodeManagers hand
 * {@code JAVA_HOME}, {@code HADOOP_*_HOME} and {@code HADOOP_CONF_DIR} on to the containers.
 */
final class DaemonLauncher {

  private static final String SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

  private final ClusterState state;
  private final ClusterFiles files;
  private final HadoopInstall install;
  private final String javaCommand = Path.of(System.getProperty("java.home"), "bin", "java").toString();

  DaemonLauncher(ClusterState state, ClusterFiles files, HadoopInstall install) {
    this.state = state;
    this.files = files;
    this.install = install;
  }

  /** Starts the daemon and returns its process (the JVM itself: every step of the way execs). */
  Process start(Host host, Daemon daemon) throws IOException {
    Files.createDirectories(files.hostLogs(host));
    Files.createDirectories(files.pidFile(host, daemon).getParent());
    List<String> command = new ArrayList<>(List.of("setsid"));
    command.addAll(jvm(host, daemon, List.of()));
    Process process = builder(host, command)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(files.daemonOut(host, daemon).toFile()))
        .start();
    Files.writeString(files.pidFile(host, daemon), process.pid() + "\n");
    return process;
  }

  /** Runs a daemon's main class with {@code args} to its end ({@code namenode -format}). */
  void runToEnd(Host host, Daemon daemon, List<String> args, long timeoutMs) throws IOException {
    Files.createDirectories(files.hostLogs(host));
    Path out = files.hostLogs(host).resolve(daemon.command + "-" + args.get(0).replace("-", "") + ".out");
    Process process = builder(host, jvm(host, daemon, args))
        .redirectOutput(ProcessBuilder.Redirect.to(out.toFile())).start();
    try {
      if (!process.waitFor(timeoutMs, TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        throw new IOException(daemon.command + " " + String.join(" ", args) + " on " + host.name()
            + " did not end within " + timeoutMs / 1000 + " s; its output is in " + out);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted: " + daemon.command + " " + args);
    }
    if (process.exitValue() != 0) {
      throw new IOException(daemon.command + " " + String.join(" ", args) + " on " + host.name()
          + " failed (exit status " + process.exitValue() + "); its output is in " + out);
    }
  }

  private ProcessBuilder builder(Host host, List<String> command) {
    ProcessBuilder builder = new ProcessBuilder(command)
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectErrorStream(true)
        .directory(files.host(host).toFile());
    Map<String, String> env = builder.environment();
    env.clear();
    env.put("PATH", SYSTEM_PATH);
    env.put("LANG", "C.UTF-8");
    env.put("HOME", System.getProperty("user.home"));
    env.put("USER", System.getProperty("user.name"));
    env.put("JAVA_HOME", System.getProperty("java.home"));
    String home = install.home().toString();
    for (String key : List.of("HADOOP_HOME", "HADOOP_COMMON_HOME", "HADOOP_HDFS_HOME", "HADOOP_YARN_HOME",
        "HADOOP_MAPRED_HOME")) {
      env.put(key, home);
    }
    env.put("HADOOP_CONF_DIR", files.hostConf(host).toString());
    env.put("HADOOP_LOG_DIR", files.hostLogs(host).toString());
    return builder;
  }

  /** The caller's {@code HADOOP_OPTS}, which Apache's scripts give every daemon they start. */
  private static List<String> userOptions() {
    String options = System.getenv("HADOOP_OPTS");
    return options == null || options.isBlank() ? List.of() : List.of(options.trim().split("\\s+"));
  }

  private List<String> jvm(Host host, Daemon daemon, List<String> args) {
    List<String> command = new ArrayList<>();
    if (state.namespaces()) {
      command.addAll(NamespaceNetwork.onHost(host));
    }
    String logs = files.hostLogs(host).toString();
    command.addAll(List.of(javaCommand, "-Dproc_" + daemon.command, "-Xmx" + daemon.heapMb + "m",
        "-XX:+UseSerialGC", "-Djava.net.preferIPv4Stack=true"));
    command.addAll(ClusterConfiguration.addOpensOptions());
    command.addAll(userOptions());
    command.addAll(List.of(
        "-Dhadoop.log.dir=" + logs, "-Dhadoop.log.file=" + daemon.command + ".log",
        "-Dyarn.log.dir=" + logs, "-Dyarn.log.file=" + daemon.command + ".log",
        "-Dhadoop.home.dir=" + install.home(), "-Dyarn.home.dir=" + install.home(),
        "-Dhadoop.id.str=" + System.getProperty("user.name"),
        "-Dhadoop.root.logger=INFO,RFA", "-Dhadoop.security.logger=INFO,NullAppender",
        "-cp", install.classPath(files.hostConf(host)), daemon.mainClass));
    command.addAll(args);
    return command;
  }
}
