package io.vivace.demo;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.fs.FileUtil;

/**
 * {@code ./vivace demo [generic options]}: Apache's example jobs from the unmodified
 * hadoop-mapreduce-examples jar on this machine, each output checked: teragen of {@code
 * VIVACE_DEMO_ROWS} rows (default 1,000,000), terasort, Apache's teravalidate ({@link
 * TeraSortCheck}), then wordcount over the repository's own sources ({@link WordCountCheck}). Each
 * job runs as {@code ./vivace examples PROGRAM [generic options] ARGS} runs it, in a launcher process
 * of its own: a job jar like any user's, on Vivace unless the options say otherwise.
 *
 * <p>Started by the launcher as {@code Demo EXAMPLES_JAR [generic options]}, with {@code
 * -Dvivace.home}. Writes into a new folder under {@code $TMPDIR/vivace-demo}, which is also the jobs'
 * working directory (Apache's LocalJobRunner links distributed-cache files, terasort's {@code
 * _partition.lst}, there); the terasort data is removed at the end unless {@code VIVACE_DEMO_KEEP}
 * is set. Exits with status 1 naming the job or the check that failed.
 */
public final class Demo {

  static final long DEFAULT_ROWS = 1_000_000;

  private final Path launcher;
  private final Path examplesJar;
  private final List<String> genericOptions;
  private final Path dir;

  private Demo(Path home, Path examplesJar, List<String> genericOptions, Path dir) {
    this.launcher = home.resolve("vivace");
    this.examplesJar = examplesJar;
    this.genericOptions = genericOptions;
    this.dir = dir;
  }

  public static void main(String[] args) {
    try {
      if (args.length == 0 || System.getProperty("vivace.home") == null) {
        throw new DemoFailedException(
            "usage: java -Dvivace.home=DIR io.vivace.demo.Demo EXAMPLES_JAR [generic options]");
      }
      long rows = rows(System.getenv("VIVACE_DEMO_ROWS"));
      Path home = Path.of(System.getProperty("vivace.home"));
      Path dir = newRunFolder(Path.of(System.getProperty("java.io.tmpdir"), "vivace-demo"));
      Demo demo = new Demo(home, Path.of(args[0]),
          Arrays.asList(args).subList(1, args.length), dir);
      demo.run(rows, home, System.getenv("VIVACE_DEMO_KEEP") != null
          && !System.getenv("VIVACE_DEMO_KEEP").isEmpty());
    } catch (DemoFailedException e) {
      fail(e.getMessage());
    } catch (IOException e) {
      fail("demo: " + e);
    } catch (InterruptedException e) {
      fail("demo interrupted");
    }
  }

  private static void fail(String message) {
    System.err.println("vivace: " + message);
    System.exit(1);
  }

  /** {@code root/run-<date>-<time>}, with a number after it when that exists already. */
  static Path newRunFolder(Path root) throws IOException {
    Files.createDirectories(root);
    String name = "run-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    for (int n = 1; ; n++) {
      try {
        return Files.createDirectory(root.resolve(n == 1 ? name : name + "-" + n));
      } catch (FileAlreadyExistsException e) {
        // another demo started in the same second
      }
    }
  }

  static long rows(String setting) throws DemoFailedException {
    if (setting == null || setting.isEmpty()) {
      return DEFAULT_ROWS;
    }
    try {
      long rows = Long.parseLong(setting);
      if (rows > 0) {
        return rows;
      }
    } catch (NumberFormatException e) {
      // the message below
    }
    throw new DemoFailedException("VIVACE_DEMO_ROWS must be a number of rows above 0, not: " + setting);
  }

  private void run(long rows, Path sources, boolean keep)
      throws IOException, InterruptedException, DemoFailedException {
    System.out.println("demo directory: " + dir);
    System.out.println("examples jar:   " + examplesJar);
    Path teraIn = dir.resolve("tera-in");
    Path teraOut = dir.resolve("tera-out");
    Path teraReport = dir.resolve("tera-report");
    runExample("teragen", Long.toString(rows), teraIn.toString());
    runExample("terasort", teraIn.toString(), teraOut.toString());
    runExample("teravalidate", teraOut.toString(), teraReport.toString());
    System.out.println(TeraSortCheck.check(teraOut, teraReport, rows));

    Path wcIn = dir.resolve("wc-in");
    Path wcOut = dir.resolve("wc-out");
    copySources(sources, wcIn);
    runExample("wordcount", wcIn.toString(), wcOut.toString());
    System.out.println(WordCountCheck.check(wcIn, wcOut));

    if (!keep) {
      FileUtil.fullyDelete(teraIn.toFile());
      FileUtil.fullyDelete(teraOut.toFile());
    }
    System.out.println("demo passed; results in " + dir);
  }

  /** Runs {@code ./vivace examples PROGRAM [generic options] ARGS} in the demo's folder. */
  private void runExample(String program, String... programArgs)
      throws IOException, InterruptedException, DemoFailedException {
    List<String> args = new ArrayList<>();
    args.add(program);
    args.addAll(genericOptions);
    args.addAll(List.of(programArgs));
    System.out.println("==> vivace examples " + String.join(" ", args));
    List<String> command = new ArrayList<>(List.of(launcher.toString(), "jar", examplesJar.toString()));
    command.addAll(args);
    Process job = new ProcessBuilder(command).directory(dir.toFile()).inheritIO().start();
    if (job.waitFor() != 0) {
      throw new DemoFailedException(program + " failed (exit status " + job.exitValue() + ")");
    }
  }

  /**
   * Copies the repository's {@code *.md}, {@code *.java} and {@code pom.xml} files, outside build
   * and hidden folders, into {@code target}, named {@code NNNN-<name>} in path order.
   */
  static void copySources(Path home, Path target) throws IOException {
    List<Path> files = new ArrayList<>();
    Files.walkFileTree(home, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
        String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
        boolean skipped = !dir.equals(home)
            && (name.equals("target") || name.equals("node_modules") || name.startsWith("."));
        return skipped ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
        String name = file.getFileName().toString();
        if (attrs.isRegularFile()
            && (name.endsWith(".md") || name.endsWith(".java") || name.equals("pom.xml"))) {
          files.add(file);
        }
        return FileVisitResult.CONTINUE;
      }
    });
    files.sort(null);
    Files.createDirectories(target);
    for (int i = 0; i < files.size(); i++) {
      Path file = files.get(i);
      Files.copy(file, target.resolve(String.format("%04d-%s", i + 1, file.getFileName())));
    }
  }
}
