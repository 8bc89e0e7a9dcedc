package io.vivace.realcluster;

import java.nio.file.Path;

/** The command line of {@code ./vivace cluster}. */
record ClusterOptions(Command command, Path dir, int workers, LinkRate link, int cores, int memoryMb,
                      boolean namespaces, String host, String linkTo, Daemon daemon) {

  enum Command { UP, DOWN, STATUS, CLASSPATH, KILL, LINK, RESTART }

  static final int DEFAULT_WORKERS = 2;
  static final int DEFAULT_CORES = 4;
  static final int DEFAULT_MEMORY_MB = 3072;
  static final int MAX_WORKERS = 200;

  static final String USAGE = String.join("\n",
      "Usage: vivace cluster up --dir DIR [--hosts N] [--link RATE] [--cores N] [--memory MB] [--no-netns]",
      "       vivace cluster down --dir DIR",
      "       vivace cluster status --dir DIR",
      "       vivace cluster classpath --dir DIR",
      "       vivace cluster kill --dir DIR --host HOST [--daemon datanode|nodemanager]",
      "       vivace cluster restart --dir DIR --host HOST --daemon datanode|nodemanager",
      "       vivace cluster link --dir DIR --host HOST --to down|up|none|RATE",
      "  up         a master host (NameNode, ResourceManager, JobHistory server) and N worker hosts",
      "             (DataNode and NodeManager), each host its own network namespace; returns once",
      "             every daemon is up, with the client configuration in DIR/conf",
      "  --hosts    worker hosts (default " + DEFAULT_WORKERS + ")",
      "  --link     every host's link, shaped in both directions: 1gbit, 10gbit, 100mbit, ... or none",
      "             (default none)",
      "  --cores    YARN vcores of each worker (default " + DEFAULT_CORES + ")",
      "  --memory   YARN memory of each worker in MB (default " + DEFAULT_MEMORY_MB + ")",
      "  --no-netns the same daemons on loopback ports, for where namespaces cannot be made",
      "  down       stops every process and removes every namespace, link and /etc/netns entry",
      "             the cluster (or a crashed up) left; its data stays in DIR",
      "  status     hosts, daemons and their pids; exit status 0 when every daemon runs",
      "  classpath  the installation's class path, as `hadoop classpath` prints it",
      "  kill       SIGKILLs every process of one host at once (a host lost; its namespace and link stay);",
      "             with --daemon only that daemon's JVM (a NodeManager's containers live on)",
      "  restart    one daemon of a worker SIGKILLed if it runs and started again as up starts it;",
      "             returns once it serves again",
      "  link       one host's link cut (down), back (up), unshaped (none) or shaped to RATE, both ways",
      "  --host     a host by its name (vv7-worker2) or host name",
      "  --daemon   a worker's daemon: datanode or nodemanager",
      "HADOOP_OPTS, when set, goes on every daemon's command line (up, restart), as Apache's scripts add it");

  static ClusterOptions parse(String[] args) {
    if (args.length == 0) {
      throw new IllegalArgumentException("no command");
    }
    Command command = switch (args[0]) {
      case "up" -> Command.UP;
      case "down" -> Command.DOWN;
      case "status" -> Command.STATUS;
      case "classpath" -> Command.CLASSPATH;
      case "kill" -> Command.KILL;
      case "link" -> Command.LINK;
      case "restart" -> Command.RESTART;
      default -> throw new IllegalArgumentException("unknown command: " + args[0]);
    };
    Path dir = null;
    int workers = DEFAULT_WORKERS;
    LinkRate link = LinkRate.UNSHAPED;
    int cores = DEFAULT_CORES;
    int memoryMb = DEFAULT_MEMORY_MB;
    boolean namespaces = true;
    String host = null;
    String linkTo = null;
    Daemon daemon = null;
    for (int i = 1; i < args.length; i++) {
      String option = args[i];
      if (option.equals("--no-netns")) {
        namespaces = false;
        continue;
      }
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException(option.startsWith("--") ? option + " needs a value"
            : "unexpected argument: " + option);
      }
      String value = args[++i];
      switch (option) {
        case "--dir" -> dir = Path.of(value).toAbsolutePath().normalize();
        case "--hosts" -> workers = positive(option, value, MAX_WORKERS);
        case "--link" -> link = LinkRate.parse(value);
        case "--cores" -> cores = positive(option, value, 1024);
        case "--memory" -> memoryMb = positive(option, value, 1 << 20);
        case "--host" -> host = value;
        case "--to" -> linkTo = linkTarget(value);
        case "--daemon" -> daemon = workerDaemon(value);
        default -> throw new IllegalArgumentException("unknown option: " + option);
      }
    }
    if (dir == null) {
      throw new IllegalArgumentException("--dir DIR is required");
    }
    if (command == Command.UP && memoryMb < 512) {
      throw new IllegalArgumentException("--memory " + memoryMb + ": a worker needs at least 512 MB");
    }
    if ((command == Command.KILL || command == Command.LINK || command == Command.RESTART) && host == null) {
      throw new IllegalArgumentException(args[0] + " needs --host HOST");
    }
    if (command == Command.LINK && linkTo == null) {
      throw new IllegalArgumentException("link needs --to down|up|none|RATE");
    }
    if (daemon != null && command != Command.KILL && command != Command.RESTART) {
      throw new IllegalArgumentException("--daemon goes with kill and restart only");
    }
    if (command == Command.RESTART && daemon == null) {
      throw new IllegalArgumentException("restart needs --daemon datanode|nodemanager");
    }
    return new ClusterOptions(command, dir, workers, link, cores, memoryMb, namespaces, host, linkTo, daemon);
  }

  private static Daemon workerDaemon(String value) {
    for (Daemon daemon : Host.Role.WORKER.daemons) {
      if (daemon.command.equals(value)) {
        return daemon;
      }
    }
    throw new IllegalArgumentException("--daemon " + value + ": a worker's daemons are "
        + String.join(" and ", Host.Role.WORKER.daemons.stream().map(d -> d.command).toList()));
  }

  private static String linkTarget(String value) {
    if (!value.equals(HostFault.DOWN) && !value.equals(HostFault.UP)) {
      LinkRate.parse(value); // says what is wrong with it
    }
    return value;
  }

  private static int positive(String option, String value, int max) {
    int n;
    try {
      n = Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(option + " " + value + ": not a number");
    }
    if (n < 1 || n > max) {
      throw new IllegalArgumentException(option + " " + value + ": must be between 1 and " + max);
    }
    return n;
  }
}
