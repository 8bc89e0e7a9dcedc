package io.vivace.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.conf.Key;
import io.vivace.conf.KeyRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/architecture.md's tables say what the code does: the package table's class counts and
 * dependencies are the compiled classes', and the configuration table names every {@code vivace.*}
 * key of the runtime beside a class that reads it.
 */
class ArchitectureTablesTest {

  private static final Pattern CODE = Pattern.compile("`([^`]+)`");

  @Test
  void thePackageTableHasEveryPackageItsClassCountAndWhatItDependsOn() {
    Map<String, Set<String>> deps = RuntimePackages.dependencies();
    Map<String, Integer> files = RuntimePackages.sourceFiles();
    Map<String, String> actual = new TreeMap<>();
    for (String pkg : deps.keySet()) {
      actual.put(pkg, files.getOrDefault(pkg, 0) + " | " + (deps.get(pkg).isEmpty() ? "none" : String.join(", ", deps.get(pkg))));
    }
    Map<String, String> documented = new TreeMap<>();
    for (List<String> row : rows(section("## Packages"))) {
      String pkg = code(row.get(0)).get(0);
      List<String> dependsOn = code(row.get(3)).stream().filter(name -> name.matches("[a-z][a-z0-9.]*")).toList();
      documented.put(pkg, row.get(1).trim() + " | "
          + (dependsOn.isEmpty() ? "none" : String.join(", ", new TreeSet<>(dependsOn))));
    }
    assertEquals(table(actual), table(documented), "docs/architecture.md's package table (package | classes |"
        + " depends on), against runtime/src/main/java and its compiled classes");
  }

  @Test
  void theConfigurationTableNamesEveryRuntimeKeyBesideAClassThatReadsIt() {
    Map<String, List<String>> keysByRow = new LinkedHashMap<>();
    List<String> wrong = new ArrayList<>();
    for (List<String> row : rows(section("## Configuration"))) {
      List<String> classes = code(row.get(0));
      for (String key : code(row.get(1))) {
        if (!key.startsWith("vivace.")) {
          continue;
        }
        keysByRow.computeIfAbsent(key, k -> new ArrayList<>()).addAll(classes);
        if (KeyRegistry.get().key(key) == null) {
          wrong.add(key + " (row " + classes + "): no such key in vivace-default.xml");
        } else if (classes.stream().noneMatch(c -> reads(c, key))) {
          wrong.add(key + " (row " + classes + "): none of these classes names it");
        }
      }
    }
    for (Key key : KeyRegistry.get().keys()) {
      if (key.module().equals("runtime") && !keysByRow.containsKey(key.name())) {
        wrong.add(key.name() + ": a runtime key the table does not name (add it to the row of a class that reads it)");
      }
    }
    assertTrue(wrong.isEmpty(), "docs/architecture.md's configuration table:\n" + String.join("\n", wrong));
  }

  /** Whether the source of {@code pkgClass} ({@code exec/LocalJob}, {@code shuffle.net/FetchSettings}) names the key. */
  private static boolean reads(String pkgClass, String key) {
    Path file = Path.of("src", "main", "java", "io", "vivace", pkgClass.replace('.', '/') + ".java");
    try {
      return Files.isRegularFile(file) && Files.readString(file).contains("\"" + key + "\"");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String table(Map<String, String> rows) {
    StringBuilder text = new StringBuilder();
    rows.forEach((pkg, row) -> text.append(pkg).append(" | ").append(row).append('\n'));
    return text.toString();
  }

  /** The page's text from {@code heading} to the next heading of its level. */
  private static String section(String heading) {
    String text = RuntimePackages.architectureText();
    int start = text.indexOf("\n" + heading + "\n");
    assertTrue(start >= 0, "docs/architecture.md has no " + heading);
    int end = text.indexOf("\n## ", start + heading.length() + 1);
    return text.substring(start, end < 0 ? text.length() : end);
  }

  /** The cells of the section's first table, below its header row. */
  private static List<List<String>> rows(String section) {
    List<List<String>> rows = new ArrayList<>();
    boolean inTable = false;
    for (String line : section.split("\n")) {
      if (!line.startsWith("|")) {
        if (inTable) {
          break;
        }
        continue;
      }
      if (!inTable) {
        inTable = true; // the header row
        continue;
      }
      if (line.startsWith("| ---")) {
        continue;
      }
      List<String> cells = new ArrayList<>();
      for (String cell : line.substring(1, line.length() - 1).split("(?<!\\\\)\\|")) {
        cells.add(cell.trim());
      }
      rows.add(cells);
    }
    return rows;
  }

  private static List<String> code(String cell) {
    List<String> names = new ArrayList<>();
    Matcher m = CODE.matcher(cell);
    while (m.find()) {
      names.add(m.group(1));
    }
    return names;
  }
}
