package io.vivace.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Reading and comparing job output directories on the local file system. */
public final class OutputDirs {

  private OutputDirs() {}

  /** Regular files named {@code part-*}, in name order. */
  public static List<Path> partFiles(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(Files::isRegularFile)
          .filter(p -> p.getFileName().toString().startsWith("part-"))
          .sorted()
          .collect(Collectors.toList());
    }
  }

  public static List<String> partNames(Path dir) throws IOException {
    return names(partFiles(dir));
  }

  /**
   * The files a reader of the output sees: regular files not starting with '.' or '_' (so neither
   * {@code _SUCCESS}, {@code _partition.lst} nor LocalFileSystem's {@code .crc} side files), in name
   * order.
   */
  public static List<Path> visibleFiles(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(Files::isRegularFile)
          .filter(p -> {
            String n = p.getFileName().toString();
            return !n.startsWith(".") && !n.startsWith("_");
          })
          .sorted()
          .collect(Collectors.toList());
    }
  }

  public static List<String> names(List<Path> files) {
    return files.stream().map(p -> p.getFileName().toString()).collect(Collectors.toList());
  }

  /** {@code part-r-00000 ... part-r-(n-1)} (or {@code m} for map-only output). */
  public static List<String> expectedPartNames(char kind, int n) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(String.format("part-%c-%05d", kind, i));
    }
    return out;
  }

  /** FileOutputCommitter's contract: {@code _SUCCESS} written, {@code _temporary} gone. */
  public static void assertCommitted(Path dir, String what) {
    assertTrue(Files.isDirectory(dir), what + ": output directory " + dir + " does not exist");
    assertTrue(Files.isRegularFile(dir.resolve("_SUCCESS")),
        what + ": no _SUCCESS marker in " + dir + " (contents: " + listing(dir) + ")");
    assertFalse(Files.exists(dir.resolve("_temporary")),
        what + ": _temporary left behind in " + dir + " (contents: " + listing(dir) + ")");
  }

  public static long totalSize(List<Path> files) throws IOException {
    long n = 0;
    for (Path p : files) {
      n += Files.size(p);
    }
    return n;
  }

  /**
   * The visible files of both directories have the same names and the same bytes. The message
   * names the first differing file and byte offset.
   */
  public static void assertSameFiles(Path expectedDir, Path actualDir, String what)
      throws IOException {
    List<Path> expected = visibleFiles(expectedDir);
    List<Path> actual = visibleFiles(actualDir);
    assertEquals(names(expected), names(actual),
        what + ": output file names differ between " + expectedDir + " and " + actualDir);
    assertFalse(expected.isEmpty(), what + ": no output files in " + expectedDir);
    for (int i = 0; i < expected.size(); i++) {
      assertSameBytes(List.of(expected.get(i)), List.of(actual.get(i)),
          what + ": file " + expected.get(i).getFileName());
    }
  }

  /**
   * The concatenations of {@code expected} and of {@code actual} (each in the given order) are
   * byte-identical.
   */
  public static void assertSameBytes(List<Path> expected, List<Path> actual, String what)
      throws IOException {
    long offset = 0;
    try (InputStream a = concat(expected); InputStream b = concat(actual)) {
      while (true) {
        int x = a.read();
        int y = b.read();
        if (x != y) {
          String detail;
          if (x < 0) {
            detail = "expected ends at byte " + offset + ", actual is longer";
          } else if (y < 0) {
            detail = "actual ends at byte " + offset + ", expected is longer";
          } else {
            detail = String.format("first difference at byte offset %d: expected 0x%02x, actual 0x%02x",
                offset, x, y);
          }
          fail(what + " differs; " + detail + locate(expected, offset) + "\n  expected around it: "
              + snippet(expected, offset) + "\n  actual around it:   " + snippet(actual, offset)
              + "\n  expected files: " + expected + "\n  actual files:   " + actual);
        }
        if (x < 0) {
          return;
        }
        offset++;
      }
    }
  }

  /** The file and offset within it that a position in a concatenation falls in. */
  private static String locate(List<Path> files, long offset) throws IOException {
    if (files.size() < 2) {
      return "";
    }
    long start = 0;
    for (Path p : files) {
      long size = Files.size(p);
      if (offset < start + size) {
        return " (in " + p.getFileName() + " at offset " + (offset - start) + ")";
      }
      start += size;
    }
    return " (past the end of the expected files)";
  }

  private static String snippet(List<Path> files, long offset) throws IOException {
    long from = Math.max(0, offset - 24);
    byte[] buf = new byte[64];
    int n = 0;
    try (InputStream in = concat(files)) {
      in.skipNBytes(from);
      int r;
      while (n < buf.length && (r = in.read(buf, n, buf.length - n)) > 0) {
        n += r;
      }
    } catch (java.io.EOFException e) {
      return "<eof>";
    }
    StringBuilder sb = new StringBuilder("[@" + from + "] \"");
    for (int i = 0; i < n; i++) {
      int c = buf[i] & 0xff;
      if (from + i == offset) {
        sb.append("\u00bb"); // marks the first differing byte
      }
      if (c == '\n') {
        sb.append("\\n");
      } else if (c == '\t') {
        sb.append("\\t");
      } else if (c >= 0x20 && c < 0x7f && c != '\\' && c != '"') {
        sb.append((char) c);
      } else {
        sb.append(String.format("\\x%02x", c));
      }
    }
    return sb.append('"').toString();
  }

  private static InputStream concat(List<Path> files) throws IOException {
    List<InputStream> streams = new ArrayList<>();
    for (Path p : files) {
      streams.add(new BufferedInputStream(Files.newInputStream(p), 1 << 16));
    }
    // SequenceInputStream.close() closes every stream not yet consumed as well.
    return new SequenceInputStream(Collections.enumeration(streams));
  }

  /** Lines of all part files, in name order (UTF-8). */
  public static List<String> readPartLines(Path dir) throws IOException {
    List<String> lines = new ArrayList<>();
    for (Path p : partFiles(dir)) {
      lines.addAll(Files.readAllLines(p, StandardCharsets.UTF_8));
    }
    return lines;
  }

  public static String listing(Path dir) {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList()).toString();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
