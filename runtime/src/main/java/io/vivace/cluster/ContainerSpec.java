package io.vivace.cluster;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.yarn.api.ApplicationConstants;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;
import org.apache.hadoop.yarn.api.records.LocalResource;
import org.apache.hadoop.yarn.api.records.LocalResourceType;
import org.apache.hadoop.yarn.api.records.LocalResourceVisibility;
import org.apache.hadoop.yarn.api.records.URL;

/**
 * How the session's containers start, its application master's and its executors' alike: the
 * files YARN localises for them (the session's configuration, Vivace's jars), their class path and
 * JVM options. The client that starts a session makes one; it travels to the application master in
 * an environment variable ({@link #encode}), so the master launches executors the same way.
 */
public final class ContainerSpec {

  /** The environment variable that carries the spec into the application master. */
  public static final String ENV = "VIVACE_CONTAINER_SPEC";
  /** The session's configuration file, localised into every container's working directory. */
  public static final String CONF_FILE = "vivace-session.xml";
  /** The containers' log4j configuration, in the runtime's jar: {@code syslog} at {@code vivace.log.level}. */
  public static final String LOG_CONFIGURATION = "vivace-container-log4j.properties";

  private final Map<String, LocalResource> resources;
  private final String classPath;
  private final List<String> jvmOptions;

  public ContainerSpec(Map<String, LocalResource> resources, String classPath, List<String> jvmOptions) {
    this.resources = resources;
    this.classPath = classPath;
    this.jvmOptions = jvmOptions;
  }

  /** A file on the cluster's file system as a resource YARN localises for the application. */
  public static LocalResource resource(FileSystem fs, Path path, LocalResourceType type) throws IOException {
    FileStatus status = fs.getFileStatus(path);
    return LocalResource.newInstance(URL.fromPath(fs.makeQualified(path)), type,
        LocalResourceVisibility.APPLICATION, status.getLen(), status.getModificationTime());
  }

  /** The launch context of a container running {@code mainClass} with {@code heapMb} of heap. */
  public ContainerLaunchContext launchContext(String mainClass, List<String> args, int heapMb,
                                              Map<String, String> env, ByteBuffer tokens) {
    List<String> command = new ArrayList<>();
    command.add(ApplicationConstants.Environment.JAVA_HOME.$$() + "/bin/java");
    command.add("-Xmx" + heapMb + "m");
    command.addAll(jvmOptions);
    String logDir = ApplicationConstants.LOG_DIR_EXPANSION_VAR;
    // the container's own temporary folder (YARN makes it), not the node's /tmp that all share
    command.add("-Djava.io.tmpdir=" + ApplicationConstants.Environment.PWD.$$() + "/tmp");
    command.add("-Dlog4j.configuration=" + LOG_CONFIGURATION);
    command.add("-Dyarn.app.container.log.dir=" + logDir);
    command.add(mainClass);
    command.addAll(args);
    command.add("1>" + logDir + "/stdout");
    command.add("2>" + logDir + "/stderr");
    Map<String, String> environment = new LinkedHashMap<>(env);
    environment.put("CLASSPATH", classPath);
    environment.put(ENV, encode());
    return ContainerLaunchContext.newInstance(resources, environment, List.of(String.join(" ", command)),
        null, tokens == null ? null : tokens.duplicate(), null);
  }

  /** One line: the resources, the class path and the options, each field separated by a control character. */
  public String encode() {
    StringBuilder text = new StringBuilder();
    for (Map.Entry<String, LocalResource> e : resources.entrySet()) {
      LocalResource r = e.getValue();
      URL url = r.getResource();
      text.append(e.getKey()).append('\u0001').append(r.getType()).append('\u0001').append(url.getScheme())
          .append('\u0001').append(url.getHost() == null ? "" : url.getHost()).append('\u0001').append(url.getPort())
          .append('\u0001').append(url.getFile()).append('\u0001').append(r.getSize()).append('\u0001')
          .append(r.getTimestamp()).append('\u0002');
    }
    return text.append('\u0003').append(classPath).append('\u0003').append(String.join("\u0001", jvmOptions))
        .toString();
  }

  public static ContainerSpec decode(String text) {
    String[] parts = text.split("\u0003", -1);
    Map<String, LocalResource> resources = new LinkedHashMap<>();
    for (String item : parts[0].split("\u0002")) {
      if (item.isEmpty()) {
        continue;
      }
      String[] f = item.split("\u0001", -1);
      URL url = URL.newInstance(f[2], f[3].isEmpty() ? null : f[3], Integer.parseInt(f[4]), f[5]);
      resources.put(f[0], LocalResource.newInstance(url, LocalResourceType.valueOf(f[1]),
          LocalResourceVisibility.APPLICATION, Long.parseLong(f[6]), Long.parseLong(f[7])));
    }
    List<String> options = parts[2].isEmpty() ? List.of() : List.of(parts[2].split("\u0001"));
    return new ContainerSpec(resources, parts[1], options);
  }
}
