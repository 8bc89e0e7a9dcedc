package io.vivace.conformance.libraries;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.conformance.Frameworks;
import io.vivace.conformance.OutputDirs;
import io.vivace.conformance.Runs;
import io.vivace.conformance.SeqFiles;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Programs of a job jar run one after another, as a user's script runs them: first all on Apache's
 * LocalJobRunner, then all on the framework under test. Each side works in a folder of its own,
 * {@code root/<framework>}, which the steps' arguments name; a step that fails stops the pipeline.
 */
public final class Pipeline {

  /** A step's arguments, given the folder of the side it runs on. */
  @FunctionalInterface
  public interface Args {
    List<String> on(Path side);
  }

  /** One program of the job jar and its arguments. */
  public record Step(String program, Args args) {}

  public static Step step(String program, Args args) {
    return new Step(program, args);
  }

  /** The two sides' folders and every step's run. */
  public record Outcome(JobJar jar, Path reference, Path underTest, List<Runs.Result> runs) {

    /**
     * Every visible file under {@code relative} (recursively; names starting with '.' or '_' are
     * Hadoop's own, and skipped) exists on both sides with the same content: byte for byte, or for
     * a SequenceFile the same records, raw bytes, in the same order (SeqFiles: the sync markers,
     * random per writer, masked). SequenceFiles are read with the job jar's classes.
     */
    public Outcome assertSameTree(String relative) throws IOException {
      Path expected = reference.resolve(relative);
      Path actual = underTest.resolve(relative);
      List<Path> files = sameFileNames(relative);
      for (Path file : files) {
        compare(expected.resolve(file), actual.resolve(file), relative + "/" + file);
      }
      return this;
    }

    /**
     * As {@link #assertSameTree}, but the records of SequenceFiles are compared as their classes'
     * {@code equals} sees them, each key and value first mapped by {@code canonical} ({@link
     * EqualRecords}): for outputs that keep the values of a key in the order the reduce received
     * them, which Hadoop's sort does not define. So are files named {@code *.bin} that hold one
     * {@code binWritable} (null: none do) and differ in their bytes. Other files must still be
     * byte-identical. Prints the files whose bytes differ.
     */
    public Outcome assertEqualRecordsTree(String relative, String binWritable, UnaryOperator<Object> canonical)
        throws IOException {
      Path expected = reference.resolve(relative);
      Path actual = underTest.resolve(relative);
      List<Path> files = sameFileNames(relative);
      for (Path file : files) {
        String what = (relative + "/" + file).replaceAll("/$", "");
        Path e = expected.resolve(file);
        Path a = actual.resolve(file);
        if (isSequenceFile(e)) {
          long[] differ = new long[1];
          withJobClasses(() -> differ[0] = EqualRecords.assertEqual(e, a, what, canonical));
          if (differ[0] > 0) {
            System.out.printf("[conformance] %s: equal records, %d of them in other bytes%n", what, differ[0]);
          }
        } else if (binWritable != null && file.toString().endsWith(".bin") && Files.mismatch(e, a) >= 0) {
          withJobClasses(() -> EqualRecords.assertEqualWritable(e, a, binWritable, what, canonical));
          System.out.printf("[conformance] %s: an equal %s in other bytes%n", what, binWritable);
        } else {
          OutputDirs.assertSameBytes(List.of(e), List.of(a), what);
        }
      }
      return this;
    }

    /**
     * Every text file under {@code relative} has the same lines on both sides once each side's
     * lines are put in a {@code canonical} form: for programs that write values in the order they
     * met them (see {@link #sortedWithinKeys}).
     */
    public Outcome assertSameLines(String relative, UnaryOperator<List<String>> canonical) throws IOException {
      Path expected = reference.resolve(relative);
      Path actual = underTest.resolve(relative);
      List<Path> files = sameFileNames(relative);
      for (Path file : files) {
        String what = relative + "/" + file;
        List<String> e = Files.readAllLines(expected.resolve(file), StandardCharsets.UTF_8);
        List<String> a = Files.readAllLines(actual.resolve(file), StandardCharsets.UTF_8);
        List<String> ce = canonical.apply(e);
        List<String> ca = canonical.apply(a);
        assertEquals(ce.size(), ca.size(), what + ": line count");
        for (int i = 0; i < ce.size(); i++) {
          assertEquals(ce.get(i), ca.get(i), what + ": line " + (i + 1) + " in canonical order");
        }
        long differ = 0;
        for (int i = 0; i < e.size(); i++) {
          differ += e.get(i).equals(a.get(i)) ? 0 : 1;
        }
        if (differ > 0) {
          System.out.printf("[conformance] %s: the same in canonical order, %d of %d lines differ as written%n",
              what, differ, e.size());
        }
      }
      return this;
    }

    /** The visible files under {@code relative}, the same on both sides and not none. */
    private List<Path> sameFileNames(String relative) throws IOException {
      List<Path> files = visibleFilesUnder(reference.resolve(relative));
      assertFalse(files.isEmpty(), "no output under " + reference.resolve(relative));
      assertEquals(files, visibleFilesUnder(underTest.resolve(relative)), "the files under " + relative + " differ");
      return files;
    }

    private void compare(Path expected, Path actual, String what) throws IOException {
      if (isSequenceFile(expected)) {
        withJobClasses(() -> SeqFiles.assertSameSequenceFile(expected, actual, what));
      } else {
        OutputDirs.assertSameBytes(List.of(expected), List.of(actual), what);
      }
    }

    /** Runs {@code check} with the job jar's classes as the thread's (and so Hadoop's) loader. */
    public void withJobClasses(IoCheck check) throws IOException {
      Thread thread = Thread.currentThread();
      ClassLoader previous = thread.getContextClassLoader();
      try (URLClassLoader loader = jar.newClassLoader(Pipeline.class.getClassLoader())) {
        thread.setContextClassLoader(loader);
        check.run();
      } finally {
        thread.setContextClassLoader(previous);
      }
    }
  }

  /** A check that reads files. */
  @FunctionalInterface
  public interface IoCheck {
    void run() throws IOException;
  }

  private Pipeline() {}

  /** Runs {@code steps} on the reference, then on the framework under test. */
  public static Outcome run(Path root, JobJar jar, Step... steps) throws Exception {
    String reference = Frameworks.REFERENCE;
    String underTest = Frameworks.underTest();
    List<Runs.Result> runs = new ArrayList<>();
    for (String framework : List.of(reference, underTest)) {
      Path side = root.resolve(framework);
      for (Step step : steps) {
        Runs.Result r = JobJarRunner.run(framework, side.resolve("scratch"), jar, step.program(),
            step.args().on(side).toArray(new String[0]));
        runs.add(r);
        r.assertSucceeded();
      }
    }
    return new Outcome(jar, root.resolve(reference), root.resolve(underTest), runs);
  }

  /** Each line in its {@code canonical} form. */
  public static UnaryOperator<List<String>> eachLine(UnaryOperator<String> canonical) {
    return lines -> lines.stream().map(canonical).collect(Collectors.toList());
  }

  /**
   * The lines with every run of consecutive lines of one key sorted: a reduce's output for one key,
   * written in the order its values came, which Hadoop's sort leaves undefined.
   */
  public static UnaryOperator<List<String>> sortedWithinKeys(Function<String, String> key) {
    return lines -> {
      List<String> out = new ArrayList<>(lines.size());
      int start = 0;
      for (int i = 1; i <= lines.size(); i++) {
        if (i == lines.size() || !key.apply(lines.get(i)).equals(key.apply(lines.get(start)))) {
          lines.subList(start, i).stream().sorted().forEach(out::add);
          start = i;
        }
      }
      return out;
    };
  }

  /** Arguments as a list, for {@link Args} lambdas. */
  public static List<String> args(Object... args) {
    return Arrays.stream(args).map(String::valueOf).collect(Collectors.toList());
  }

  /** Paths of the visible files under {@code dir}, relative to it, sorted; a file is its own. */
  static List<Path> visibleFilesUnder(Path dir) throws IOException {
    if (Files.isRegularFile(dir)) {
      return List.of(Path.of(""));
    }
    assertTrue(Files.isDirectory(dir), dir + " is not a folder");
    try (Stream<Path> all = Files.walk(dir)) {
      return all.filter(Files::isRegularFile)
          .map(dir::relativize)
          .filter(Pipeline::visible)
          .sorted()
          .collect(Collectors.toList());
    }
  }

  private static boolean visible(Path relative) {
    for (Path name : relative) {
      String n = name.toString();
      if (n.startsWith(".") || n.startsWith("_")) {
        return false;
      }
    }
    return true;
  }

  private static boolean isSequenceFile(Path file) throws IOException {
    byte[] magic = new byte[3];
    try (InputStream in = Files.newInputStream(file)) {
      return in.readNBytes(magic, 0, 3) == 3 && magic[0] == 'S' && magic[1] == 'E' && magic[2] == 'Q';
    }
  }
}
