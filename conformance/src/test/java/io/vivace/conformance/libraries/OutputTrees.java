package io.vivace.conformance.libraries;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.vivace.conformance.OutputDirs;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.io.Text;

/**
 * Compares two output folders, subfolders included (named outputs, MapFiles), as a reader sees
 * them: files and folders whose names start with '.' or '_' are not output. SequenceFiles are
 * compared with each file's sync marker masked: every writer draws its own at random, so two runs
 * never write the same bytes there. The header is read here, not through Hadoop's reader, which
 * would load the key and value classes (a job jar's, not on this class path).
 */
public final class OutputTrees {

  private static final byte[] SEQUENCE_FILE_MAGIC = {'S', 'E', 'Q'};
  private static final int SYNC_SIZE = 16;

  private OutputTrees() {}

  /** The output files under {@code dir}, as paths relative to it, in order. */
  public static List<String> files(Path dir) throws IOException {
    try (Stream<Path> all = Files.walk(dir)) {
      return all.filter(Files::isRegularFile)
          .filter(p -> visible(dir.relativize(p)))
          .map(p -> dir.relativize(p).toString())
          .sorted()
          .collect(Collectors.toList());
    }
  }

  private static boolean visible(Path relative) {
    for (Path part : relative) {
      String name = part.toString();
      if (name.startsWith(".") || name.startsWith("_")) {
        return false;
      }
    }
    return true;
  }

  /** The same output files, with the same bytes (SequenceFiles: sync markers masked). */
  public static void assertSame(Path expectedDir, Path actualDir, String what) throws IOException {
    List<String> expected = files(expectedDir);
    assertEquals(expected, files(actualDir), what + ": output files differ between " + expectedDir + " and " + actualDir);
    assertFalse(expected.isEmpty(), what + ": no output files in " + expectedDir);
    for (String file : expected) {
      Path e = expectedDir.resolve(file);
      Path a = actualDir.resolve(file);
      if (isSequenceFile(e)) {
        assertSameSequenceFile(e, a, what + ": " + file);
      } else {
        OutputDirs.assertSameBytes(List.of(e), List.of(a), what + ": file " + file);
      }
    }
  }

  private static boolean isSequenceFile(Path file) throws IOException {
    byte[] head = new byte[SEQUENCE_FILE_MAGIC.length];
    try (var in = Files.newInputStream(file)) {
      return in.readNBytes(head, 0, head.length) == head.length && Arrays.equals(head, SEQUENCE_FILE_MAGIC);
    }
  }

  private static void assertSameSequenceFile(Path expected, Path actual, String what) throws IOException {
    byte[] e = Files.readAllBytes(expected);
    byte[] a = Files.readAllBytes(actual);
    mask(e, syncMarker(e));
    mask(a, syncMarker(a));
    int n = Math.min(e.length, a.length);
    for (int i = 0; i < n; i++) {
      if (e[i] != a[i]) {
        throw new AssertionError(String.format("%s: SequenceFiles differ (sync markers masked) at byte %d of %d",
            what, i, e.length));
      }
    }
    assertEquals(e.length, a.length, what + ": SequenceFiles of different lengths");
  }

  /** The sync marker at the end of a SequenceFile header (version 6, as Hadoop 3 writes). */
  private static byte[] syncMarker(byte[] file) throws IOException {
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(file));
    in.skipNBytes(SEQUENCE_FILE_MAGIC.length + 1); // magic and version
    Text.readString(in); // key class
    Text.readString(in); // value class
    boolean compressed = in.readBoolean();
    in.readBoolean(); // block compressed
    if (compressed) {
      Text.readString(in); // codec
    }
    int metadata = in.readInt();
    for (int i = 0; i < 2 * metadata; i++) {
      Text.readString(in);
    }
    return in.readNBytes(SYNC_SIZE);
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
