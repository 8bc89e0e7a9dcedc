package io.vivace.demo;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.StringTokenizer;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Checks wordcount's output against the counts of its input computed here, as Apache's WordCount
 * tokenizes: a {@link StringTokenizer} (space, tab, newline, carriage return, form feed) over the
 * text of each line.
 */
final class WordCountCheck {

  private static final int DIFFERENCES_SHOWN = 5;

  private WordCountCheck() {}

  /** Returns the line the demo prints when the counts are right; throws when they are not. */
  static String check(Path input, Path output) throws IOException, DemoFailedException {
    Map<String, Long> expected = expectedCounts(input);
    Map<String, Long> actual = countsIn(output);
    List<String> differences = new ArrayList<>();
    TreeSet<String> words = new TreeSet<>(expected.keySet());
    words.addAll(actual.keySet());
    for (String word : words) {
      if (!Objects.equals(expected.get(word), actual.get(word))) {
        differences.add("'" + word + "': " + actual.get(word) + " counted, "
            + expected.get(word) + " expected");
      }
    }
    if (!differences.isEmpty()) {
      throw new DemoFailedException("wordcount counts differ from the expected ones for "
          + differences.size() + " words (" + output + "), e.g. "
          + String.join("; ", differences.subList(0, Math.min(DIFFERENCES_SHOWN, differences.size()))));
    }
    return "wordcount output: " + actual.size() + " distinct words, counts as expected";
  }

  /**
   * The tokenizer's delimiters include the line ends, so tokenizing a whole file gives the words of
   * its lines.
   */
  static Map<String, Long> expectedCounts(Path inputDir) throws IOException {
    Map<String, Long> counts = new TreeMap<>();
    try (Stream<Path> files = Files.list(inputDir)) {
      for (Path file : files.sorted().toList()) {
        StringTokenizer words =
            new StringTokenizer(new String(Files.readAllBytes(file), StandardCharsets.UTF_8));
        while (words.hasMoreTokens()) {
          counts.merge(words.nextToken(), 1L, Long::sum);
        }
      }
    }
    return counts;
  }

  static Map<String, Long> countsIn(Path outputDir) throws IOException, DemoFailedException {
    Map<String, Long> counts = new TreeMap<>();
    for (Path part : Parts.of(outputDir)) {
      for (String line : Files.readAllLines(part, StandardCharsets.UTF_8)) {
        int tab = line.lastIndexOf('\t');
        Long previous;
        try {
          previous = counts.put(line.substring(0, tab), Long.parseLong(line.substring(tab + 1)));
        } catch (IndexOutOfBoundsException | NumberFormatException e) {
          throw new DemoFailedException("not a word and its count in " + part + ": '" + line + "'");
        }
        if (previous != null) {
          throw new DemoFailedException("a word counted twice in " + outputDir + ": '" + line + "'");
        }
      }
    }
    return counts;
  }
}
