package io.vivace.realcluster;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;

/**
 * {@code vivace cluster up|down|status|classpath|kill|restart|link --dir DIR ...}: a real Apache Hadoop cluster on
 * this machine (docs/real-cluster.md). Exit status: 0 done (for {@code status}: every daemon runs),
 * 1 failed (for {@code status}: not up), 2 a bad command line, 3 network namespaces cannot be made
 * here ({@code --no-netns} can run the same daemons on loopback).
 */
public final class ClusterCommand {

  static final int NAMESPACES_UNAVAILABLE = 3;

  private ClusterCommand() {}

  public static void main(String[] args) {
    ClusterOptions options;
    try {
      options = ClusterOptions.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("cluster: " + e.getMessage());
      System.err.println(ClusterOptions.USAGE);
      System.exit(2);
      return;
    }
    ClusterFiles files = new ClusterFiles(options.dir());
    // Hadoop's clients here only wait for the daemons: their retries are not news.
    if (System.getProperty("hadoop.root.logger") == null) {
      System.setProperty("hadoop.root.logger", "WARN,console");
    }
    // Before anything looks a name up: this JVM is a client of the hosts like any other.
    System.setProperty("jdk.net.hosts.file", files.clientHosts().toString());
    try {
      System.exit(run(options, files));
    } catch (NamespacesUnavailableException e) {
      System.err.println("cluster: network namespaces cannot be made here: " + e.getMessage()
          + "; run as root, or add --no-netns for the same daemons on loopback ports");
      System.exit(NAMESPACES_UNAVAILABLE);
    } catch (IOException | RuntimeException e) {
      System.err.println("cluster: " + e.getMessage());
      System.exit(1);
    }
  }

  /** {@code kill}, {@code restart} or {@code link}: a fault of one host of the running cluster. */
  private static void fault(ClusterOptions options, ClusterFiles files) throws IOException {
    ClusterState state = ClusterState.load(files.state())
        .orElseThrow(() -> new IOException("no cluster in " + files.dir()));
    Host host = HostFault.host(state, options.host());
    Daemon daemon = options.daemon();
    switch (options.command()) {
      case KILL -> {
        if (daemon == null) {
          System.out.println("killed " + HostFault.kill(state, host) + " processes of " + host.name());
        } else {
          String which = "the " + daemon.command + " of " + host.name();
          System.out.println(HostFault.killDaemon(files, host, daemon) ? "killed " + which : which + " was not running");
        }
      }
      case RESTART -> System.out.println((DaemonRestart.run(state, files, host, daemon) ? "restarted" : "started")
          + " the " + daemon.command + " of " + host.name() + "; it serves");
      default -> {
        HostFault.link(state, host, options.linkTo());
        System.out.println("the link of " + host.name() + " is " + options.linkTo());
      }
    }
  }

  private static int run(ClusterOptions options, ClusterFiles files) throws IOException {
    switch (options.command()) {
      case STATUS:
        return ClusterStatus.print(files, System.out) ? 0 : 1;
      case CLASSPATH:
        System.out.println(new HadoopInstall(files.hadoopHome()).classPath(files.clientConf()));
        return 0;
      default:
        break;
    }
    Files.createDirectories(files.dir());
    try (FileChannel channel = FileChannel.open(files.lock(), StandardOpenOption.CREATE,
        StandardOpenOption.WRITE); FileLock lock = channel.tryLock()) {
      if (lock == null) {
        throw new IOException("another `vivace cluster` command is working on " + files.dir());
      }
      switch (options.command()) {
        case UP -> new ClusterUp(options).run();
        case DOWN -> new ClusterDown(files).run();
        default -> fault(options, files);
      }
      return 0;
    }
  }
}
