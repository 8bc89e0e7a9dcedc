package io.vivace.conformance;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.StringTokenizer;

/**
 * Deterministic text input: the same seed and sizes always give the same bytes (java.util.Random is
 * specified to be reproducible).
 *
 * <p>Words follow a skewed (Zipf-like) distribution over a vocabulary of lower/upper case ASCII
 * words, words with punctuation and multi-byte UTF-8 words; separators are mostly single spaces,
 * sometimes runs of spaces or tabs; lines end in LF, sometimes CRLF; there are empty lines, and the
 * last file does not end in a newline.
 */
public final class TextCorpus {

  private static final String[] SPECIAL = {
    "na\u00efve", "Gr\u00fc\u00dfe", "\u65e5\u672c\u8a9e", "\u00e7a", "caf\u00e9",
    "\u0394\u03ad\u03bb\u03c4\u03b1", "\u2603", "\ud83c\udfb5", "x\u0000y", "end.", "(aside)",
    "don't", "--", "#1", "\u00c5ngstr\u00f6m", "\u043c\u0438\u0440"
  };

  private TextCorpus() {}

  /**
   * Writes {@code input-00.txt, input-01.txt, ...} into {@code dir}, file i holding about
   * {@code sizes[i]} bytes. Returns the files.
   */
  public static List<Path> write(Path dir, long seed, long... sizes) throws IOException {
    Files.createDirectories(dir);
    Random rnd = new Random(seed);
    List<String> vocab = vocabulary(rnd, 4000);
    List<Path> files = new ArrayList<>();
    for (int f = 0; f < sizes.length; f++) {
      Path file = dir.resolve(String.format("input-%02d.txt", f));
      boolean last = f == sizes.length - 1;
      try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
        long written = 0;
        while (written < sizes[f]) {
          byte[] line = line(rnd, vocab).getBytes(StandardCharsets.UTF_8);
          out.write(line);
          written += line.length;
          boolean finalLine = written >= sizes[f];
          if (finalLine && last) {
            break; // no trailing newline at the very end
          }
          byte[] eol = rnd.nextInt(50) == 0 ? new byte[] {'\r', '\n'} : new byte[] {'\n'};
          out.write(eol);
          written += eol.length;
        }
      }
      files.add(file);
    }
    return files;
  }

  private static List<String> vocabulary(Random rnd, int n) {
    List<String> words = new ArrayList<>(n);
    for (String s : SPECIAL) {
      words.add(s);
    }
    while (words.size() < n) {
      int len = 1 + rnd.nextInt(12);
      StringBuilder sb = new StringBuilder(len + 1);
      for (int i = 0; i < len; i++) {
        sb.append((char) ('a' + rnd.nextInt(26)));
      }
      if (rnd.nextInt(10) == 0) {
        sb.setCharAt(0, Character.toUpperCase(sb.charAt(0)));
      }
      if (rnd.nextInt(15) == 0) {
        sb.append(",.;:!?".charAt(rnd.nextInt(6)));
      }
      words.add(sb.toString());
    }
    // Shuffle deterministically so the special words are spread over the frequency ranks.
    for (int i = words.size() - 1; i > 0; i--) {
      int j = rnd.nextInt(i + 1);
      String t = words.get(i);
      words.set(i, words.get(j));
      words.set(j, t);
    }
    return words;
  }

  private static String line(Random rnd, List<String> vocab) {
    if (rnd.nextInt(40) == 0) {
      return "";
    }
    int n = 1 + rnd.nextInt(16);
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      if (i > 0) {
        int r = rnd.nextInt(30);
        sb.append(r == 0 ? "\t" : r == 1 ? "   " : " ");
      }
      double u = rnd.nextDouble();
      sb.append(vocab.get((int) (u * u * u * vocab.size())));
    }
    return sb.toString();
  }

  /**
   * Number of whitespace-separated tokens as WordCount's mapper counts them (StringTokenizer's
   * default delimiters, line by line as TextInputFormat delivers lines).
   */
  public static long countTokens(List<Path> files) throws IOException {
    long n = 0;
    for (Path f : files) {
      String text = new String(Files.readAllBytes(f), StandardCharsets.UTF_8);
      StringTokenizer t = new StringTokenizer(text);
      while (t.hasMoreTokens()) {
        t.nextToken();
        n++;
      }
    }
    return n;
  }
}
