package io.vivace.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The repository's Markdown pages, whatever pages there are when the test runs (a page added
 * tomorrow is checked too), read with what the checks need: the prose outside fenced code blocks,
 * its links and code spans, and the headings a link may point at.
 */
final class RepositoryDocs {

  /** Folders that hold no page of the repository: build output, run output, installed packages. */
  static final Set<String> NOT_SOURCES = Set.of("target", "work", "node_modules", "__pycache__");

  private static final Pattern FENCE = Pattern.compile("^\\s*(```|~~~)");
  private static final Pattern LINK = Pattern.compile("\\[[^\\]\\n]*\\]\\(([^)\\s]+)\\)");
  private static final Pattern CODE_SPAN = Pattern.compile("`([^`\\n]+)`");
  private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");

  private RepositoryDocs() {
  }

  /** The repository's root: surefire runs in the module's folder. */
  static Path root() {
    Path root = Path.of("").toAbsolutePath().getParent();
    if (!Files.isRegularFile(root.resolve("vivace")) || !Files.isDirectory(root.resolve("docs"))) {
      throw new IllegalStateException(root + " is not the repository's root (no vivace script and docs/ there)");
    }
    return root;
  }

  /** Every Markdown page under the root, outside hidden folders and those of {@link #NOT_SOURCES}. */
  static List<Page> pages() {
    Path root = root();
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(p -> p.toString().endsWith(".md") && Files.isRegularFile(p))
          .filter(p -> isSource(root.relativize(p)))
          .sorted()
          .map(p -> Page.read(root, p))
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static boolean isSource(Path relative) {
    for (Path part : relative) {
      String name = part.toString();
      if (NOT_SOURCES.contains(name) || (name.startsWith(".") && !name.equals(".ci"))) {
        return false;
      }
    }
    return true;
  }

  /** A line of a page, numbered from 1, and whether it is inside a fenced code block. */
  record Line(int number, String text, boolean fenced) {
  }

  /** One Markdown page. */
  record Page(Path root, Path file, List<Line> lines) {

    static Page read(Path root, Path file) {
      List<String> text;
      try {
        text = Files.readAllLines(file, StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      List<Line> lines = new ArrayList<>();
      boolean fenced = false;
      for (int i = 0; i < text.size(); i++) {
        String line = text.get(i);
        boolean fence = FENCE.matcher(line).find();
        lines.add(new Line(i + 1, line, fenced || fence));
        if (fence) {
          fenced = !fenced;
        }
      }
      return new Page(root, file, lines);
    }

    /** The page's path from the repository's root, as messages name it. */
    String name() {
      return root.relativize(file).toString();
    }

    String where(Line line) {
      return name() + ":" + line.number();
    }

    /** Link targets outside fenced blocks (code spans included: a link's syntax there is text). */
    List<Found> links() {
      return find(LINK, false);
    }

    /** Code spans outside fenced blocks. */
    List<Found> codeSpans() {
      return find(CODE_SPAN, false);
    }

    /** The anchors of the page's headings, as GitHub makes them. */
    Set<String> anchors() {
      Set<String> anchors = new java.util.HashSet<>();
      java.util.Map<String, Integer> seen = new java.util.HashMap<>();
      for (Line line : lines) {
        Matcher m = HEADING.matcher(line.text());
        if (line.fenced() || !m.matches()) {
          continue;
        }
        String slug = slug(m.group(1));
        int n = seen.merge(slug, 1, Integer::sum);
        anchors.add(n == 1 ? slug : slug + "-" + (n - 1));
      }
      return anchors;
    }

    private List<Found> find(Pattern pattern, boolean inFences) {
      List<Found> found = new ArrayList<>();
      for (Line line : lines) {
        if (line.fenced() && !inFences) {
          continue;
        }
        String text = pattern == LINK ? withoutCodeSpans(line.text()) : line.text();
        Matcher m = pattern.matcher(text);
        while (m.find()) {
          found.add(new Found(line, m.group(1)));
        }
      }
      return found;
    }
  }

  /** What a check found on a line. */
  record Found(Line line, String text) {
  }

  /** GitHub's anchor of a heading: lower case, markup and punctuation dropped, spaces as hyphens. */
  static String slug(String heading) {
    String text = heading.replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1").toLowerCase(java.util.Locale.ROOT);
    StringBuilder slug = new StringBuilder();
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
        slug.append(c);
      } else if (c == ' ') {
        slug.append('-');
      }
    }
    return slug.toString();
  }

  private static String withoutCodeSpans(String line) {
    return CODE_SPAN.matcher(line).replaceAll("");
  }
}
