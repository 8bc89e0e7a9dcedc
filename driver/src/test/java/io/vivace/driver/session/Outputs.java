package io.vivace.driver.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.SequenceFile;

/**
 * What jobs leave in their output folders on the cluster's file system, and comparisons of two such
 * folders byte for byte.
 */
final class Outputs {

  /** Length of a SequenceFile's sync marker (SequenceFile.SYNC_HASH_SIZE, private there). */
  private static final int SYNC_BYTES = 16;

  private Outputs() {
  }

  /** The folder's visible files (not {@code _SUCCESS}, {@code _temporary}, dot files), by name. */
  static List<Path> visibleFiles(FileSystem fs, Path dir) throws IOException {
    List<Path> files = new ArrayList<>();
    for (FileStatus status : fs.listStatus(dir)) {
      String name = status.getPath().getName();
      if (status.isFile() && !name.startsWith("_") && !name.startsWith(".")) {
        files.add(status.getPath());
      }
    }
    files.sort(null);
    return files;
  }

  /** FileOutputCommitter's contract for a job that succeeded: {@code _SUCCESS}, no {@code _temporary}. */
  static void assertCommitted(FileSystem fs, Path dir, String what) throws IOException {
    assertTrue(fs.exists(new Path(dir, "_SUCCESS")), what + ": no _SUCCESS in " + dir + " " + listing(fs, dir));
    assertFalse(fs.exists(new Path(dir, "_temporary")), what + ": _temporary left in " + dir + " " + listing(fs, dir));
  }

  /** Nothing of a job that did not succeed is in its output folder: no part file, no {@code _SUCCESS}. */
  static void assertNothingCommitted(FileSystem fs, Path dir, String what) throws IOException {
    if (!fs.exists(dir)) {
      return;
    }
    assertEquals(List.of(), visibleFiles(fs, dir), what + ": output files in " + dir);
    assertFalse(fs.exists(new Path(dir, "_SUCCESS")), what + ": _SUCCESS in " + dir);
  }

  /** The names in a folder, for messages. */
  static List<String> listing(FileSystem fs, Path dir) throws IOException {
    List<String> names = new ArrayList<>();
    if (fs.exists(dir)) {
      for (FileStatus status : fs.listStatus(dir)) {
        names.add(status.getPath().getName());
      }
    }
    names.sort(null);
    return names;
  }

  static byte[] bytes(FileSystem fs, Path file) throws IOException {
    try (InputStream in = fs.open(file)) {
      return in.readAllBytes();
    }
  }

  /** The lines of the folder's visible files, in name order. */
  static List<String> lines(FileSystem fs, Path dir) throws IOException {
    List<String> lines = new ArrayList<>();
    for (Path file : visibleFiles(fs, dir)) {
      lines.addAll(new String(bytes(fs, file), StandardCharsets.UTF_8).lines().toList());
    }
    return lines;
  }

  /** Both folders hold visible files of the same names and the same bytes. */
  static void assertSameFiles(FileSystem fs, Path expected, Path actual, String what) throws IOException {
    compare(fs, expected, actual, what, false);
  }

  /**
   * Both folders hold SequenceFiles of the same names and the same bytes once each file's sync marker
   * is masked: every writer draws a random one (written after the header and every few KB), so two
   * runs of a job never write the same bytes there.
   */
  static void assertSameSequenceFiles(FileSystem fs, Path expected, Path actual, String what)
      throws IOException {
    compare(fs, expected, actual, what, true);
  }

  private static void compare(FileSystem fs, Path expectedDir, Path actualDir, String what, boolean sequenceFiles)
      throws IOException {
    List<Path> expected = visibleFiles(fs, expectedDir);
    List<Path> actual = visibleFiles(fs, actualDir);
    assertEquals(names(expected), names(actual), what + ": the output files of " + expectedDir + " and " + actualDir);
    assertFalse(expected.isEmpty(), what + ": no output files in " + expectedDir);
    for (int i = 0; i < expected.size(); i++) {
      byte[] e = bytes(fs, expected.get(i));
      byte[] a = bytes(fs, actual.get(i));
      if (sequenceFiles) {
        mask(e, syncMarker(fs, expected.get(i)));
        mask(a, syncMarker(fs, actual.get(i)));
      }
      int at = Arrays.mismatch(e, a);
      if (at >= 0) {
        fail(what + ": " + actual.get(i) + " differs from " + expected.get(i) + " at byte " + at + " (lengths "
            + e.length + " and " + a.length + "): expected " + around(e, at) + ", got " + around(a, at));
      }
    }
  }

  private static List<String> names(List<Path> files) {
    List<String> names = new ArrayList<>();
    for (Path file : files) {
      names.add(file.getName());
    }
    return names;
  }

  private static String around(byte[] data, int at) {
    int from = Math.max(0, at - 16);
    int to = Math.min(data.length, at + 16);
    return "\"" + new String(data, from, to - from, StandardCharsets.ISO_8859_1).replace("\n", "\\n")
        .replace("\t", "\\t") + "\"";
  }

  /** A SequenceFile's sync marker: the last bytes of its header. */
  private static byte[] syncMarker(FileSystem fs, Path file) throws IOException {
    long headerEnd;
    try (SequenceFile.Reader reader = new SequenceFile.Reader(new Configuration(fs.getConf()),
        SequenceFile.Reader.file(file))) {
      headerEnd = reader.getPosition();
    }
    byte[] all = bytes(fs, file);
    return Arrays.copyOfRange(all, (int) headerEnd - SYNC_BYTES, (int) headerEnd);
  }

  private static void mask(byte[] data, byte[] marker) {
    for (int i = 0; i + marker.length <= data.length; i++) {
      if (Arrays.equals(data, i, i + marker.length, marker, 0, marker.length)) {
        Arrays.fill(data, i, i + marker.length, (byte) 0);
        i += marker.length - 1;
      }
    }
  }
}
