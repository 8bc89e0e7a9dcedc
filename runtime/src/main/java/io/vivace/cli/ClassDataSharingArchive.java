package io.vivace.cli;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Makes the class data sharing archive that {@code ./vivace} maps into the JVMs it starts: a static
 * AppCDS archive of the classes one empty wordcount job on Vivace loads, the JDK's own included.
 * A JVM that maps them starts a job faster than one that reads and verifies them from the jars; a
 * static archive, unlike one of {@code -XX:ArchiveClassesAtExit}, also holds the classes of jars
 * built for Java 5 (slf4j, reload4j) and starts a JVM faster (docs/performance.md, "Control plane,
 * round 4").
 *
 * <p>{@code ClassDataSharingArchive ARCHIVE EXAMPLES_JAR LOG4J_PROPERTIES}, started by the launcher
 * with the class path and JVM options of the jobs that will map the archive: a first child JVM runs
 * the job and lists the classes it loads ({@code -XX:DumpLoadedClassList}), a second writes the
 * archive of them ({@code -Xshare:dump}); both get this JVM's {@code java}, class path and {@code
 * --add-opens} options, which the archive must match. The archive appears complete, by rename. Exit
 * status 0 when it is in place, 1 otherwise, the reason on stderr after the children's output.
 */
public final class ClassDataSharingArchive {

  private final Path java = Path.of(System.getProperty("java.home"), "bin", "java");
  private final String classPath = System.getProperty("java.class.path");
  private final List<String> opens = ManagementFactory.getRuntimeMXBean().getInputArguments()
      .stream().filter(option -> option.startsWith("--add-opens")).toList();

  private ClassDataSharingArchive() {}

  public static void main(String[] args) {
    if (args.length != 3) {
      System.err.println("Usage: ClassDataSharingArchive ARCHIVE EXAMPLES_JAR LOG4J_PROPERTIES");
      System.exit(1);
    }
    try {
      new ClassDataSharingArchive().make(Path.of(args[0]), Path.of(args[1]), Path.of(args[2]));
    } catch (IOException | InterruptedException e) {
      System.err.println("No class data sharing archive made: " + e.getMessage());
      System.exit(1);
    }
  }

  private void make(Path archive, Path examplesJar, Path log4jProperties)
      throws IOException, InterruptedException {
    Path work = Files.createTempDirectory(
        Path.of(System.getProperty("java.io.tmpdir")), "vivace-cds-");
    Path partial = archive.resolveSibling(archive.getFileName() + "." + ProcessHandle.current().pid()
        + ".tmp");
    try {
      Path input = Files.createDirectories(work.resolve("in"));
      Files.createFile(input.resolve("empty"));
      Path classList = work.resolve("classes.txt");
      run("the job that lists its classes", jvm(
          "-XX:DumpLoadedClassList=" + classList,
          "-Dlog4j.configuration=file:" + log4jProperties.toAbsolutePath(),
          "-Dhadoop.root.logger=WARN,console",
          "-cp", classPath, VivaceCli.class.getName(), "jar", examplesJar.toString(), "wordcount",
          "-D", "mapreduce.framework.name=vivace", "-D", "hadoop.tmp.dir=" + work.resolve("tmp"),
          input.toString(), work.resolve("out").toString()));
      run("the archive dump", jvm("-Xshare:dump", "-XX:SharedClassListFile=" + classList,
          "-XX:SharedArchiveFile=" + partial, "-Xlog:cds*=off", "-cp", classPath));
      if (!Files.isRegularFile(partial) || Files.size(partial) == 0) {
        throw new IOException("the dump wrote no archive at " + partial);
      }
      Files.move(partial, archive, StandardCopyOption.REPLACE_EXISTING,
          StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(partial);
      DeleteOnExit.deleteRecursively(work);
    }
  }

  private List<String> jvm(String... options) {
    List<String> command = new ArrayList<>();
    command.add(java.toString());
    command.addAll(opens);
    command.addAll(List.of(options));
    return command;
  }

  private static void run(String what, List<String> command)
      throws IOException, InterruptedException {
    Process process = new ProcessBuilder(command).inheritIO()
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
    int status = process.waitFor();
    if (status != 0) {
      throw new IOException(what + " exited with status " + status + " (its output is above)");
    }
  }
}
