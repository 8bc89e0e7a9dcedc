package io.vivace.realcluster;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A Hadoop installation laid out as Apache's binary distribution lays out {@code share/hadoop}:
 * Hadoop's own jars in {@code common}, {@code hdfs}, {@code yarn} and {@code mapreduce} (the
 * examples and the jobclient tests jar among them, as shipped), the libraries they need in
 * {@code common/lib} (Apache spreads a few over {@code hdfs/lib} and {@code yarn/lib}; every
 * container's class path holds all of them either way). The jars are links to the registry's
 * artifacts this module's build resolved ({@value #JARS_RESOURCE}), made at {@code up}.
 */
final class HadoopInstall {

  static final String JARS_RESOURCE = "hadoop-install-jars.txt";
  static final List<String> FOLDERS = List.of("common", "common/lib", "hdfs", "hdfs/lib", "yarn",
      "yarn/lib", "mapreduce", "mapreduce/lib");

  private final Path home;

  HadoopInstall(Path home) {
    this.home = home;
  }

  Path home() {
    return home;
  }

  /** Makes {@code share/hadoop} anew from the build's list of jars. */
  void layOut() throws IOException {
    Path share = home.resolve("share/hadoop");
    if (Files.exists(share)) {
      try (var paths = Files.walk(share)) {
        for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
      }
    }
    for (String folder : FOLDERS) {
      Files.createDirectories(share.resolve(folder));
    }
    for (Path jar : jars()) {
      Files.createSymbolicLink(share.resolve(folderOf(jar.getFileName().toString()))
          .resolve(jar.getFileName()), jar);
    }
  }

  /** The folder of {@code share/hadoop} Apache's distribution puts a jar of this name in. */
  static String folderOf(String jarName) {
    if (jarName.startsWith("hadoop-mapreduce-")) {
      return "mapreduce";
    }
    if (jarName.startsWith("hadoop-yarn-")) {
      return "yarn";
    }
    if (jarName.startsWith("hadoop-hdfs")) {
      return "hdfs";
    }
    if (jarName.startsWith("hadoop-common-") || jarName.startsWith("hadoop-registry-")
        || jarName.startsWith("hadoop-kms-") || jarName.startsWith("hadoop-nfs-")) {
      return "common";
    }
    return "common/lib";
  }

  /** The class path of the installation after {@code confDir}, as {@code hadoop classpath} prints it. */
  String classPath(Path confDir) {
    StringBuilder path = new StringBuilder(confDir.toString());
    for (String folder : FOLDERS) {
      path.append(':').append(home.resolve("share/hadoop").resolve(folder)).append("/*");
    }
    return path.toString();
  }

  static List<Path> jars() throws IOException {
    String listed;
    try (InputStream in = HadoopInstall.class.getResourceAsStream(JARS_RESOURCE)) {
      if (in == null) {
        throw new IOException("the build left no list of the installation's jars ("
            + JARS_RESOURCE + " beside " + HadoopInstall.class.getName() + ")");
      }
      listed = new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
    }
    List<Path> jars = new ArrayList<>();
    for (String entry : listed.split(":")) {
      Path jar = Path.of(entry);
      if (!Files.isRegularFile(jar)) {
        throw new IOException("the installation's jar " + jar + " (listed by the build) is missing");
      }
      jars.add(jar);
    }
    return jars;
  }
}
