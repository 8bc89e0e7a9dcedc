package io.vivace.architecture;

import com.tngtech.archunit.ArchConfiguration;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import io.vivace.cli.VivaceCli;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The runtime's packages as its compiled classes show them, named as the docs name them (below
 * {@code io.vivace}: {@code exec}, {@code shuffle.net}), and the order of their layers as
 * docs/architecture.md writes it, once, in its {@code layers} block.
 */
final class RuntimePackages {

  static final String BASE = "io.vivace.";
  private static final String ALLOWED = "allowed for now:";
  private static final Pattern LAYERS_BLOCK = Pattern.compile("(?s)```layers\\n(.*?)```");

  private static JavaClasses classes;

  private RuntimePackages() {
  }

  /**
   * The runtime's main classes (not its tests), imported once for every test of this package from
   * the folder the build compiled them into; the classes they use outside it (Hadoop's) are not
   * looked up, as only dependencies between the runtime's packages matter here.
   */
  static synchronized JavaClasses classes() {
    if (classes == null) {
      ArchConfiguration.get().setResolveMissingDependenciesFromClassPath(false);
      try {
        Path compiled = Path.of(VivaceCli.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        classes = new ClassFileImporter().importPath(compiled);
      } catch (URISyntaxException e) {
        throw new IllegalStateException(e);
      }
    }
    return classes;
  }

  static String shortName(String javaPackage) {
    return javaPackage.substring(BASE.length());
  }

  /** Each package and the other runtime packages its classes use. */
  static Map<String, Set<String>> dependencies() {
    Map<String, Set<String>> uses = new TreeMap<>();
    for (JavaClass c : classes()) {
      Set<String> used = uses.computeIfAbsent(shortName(c.getPackageName()), p -> new TreeSet<>());
      for (Dependency d : c.getDirectDependenciesFromSelf()) {
        String target = d.getTargetClass().getBaseComponentType().getPackageName();
        if (target.startsWith(BASE) && !target.equals(c.getPackageName())) {
          used.add(shortName(target));
        }
      }
    }
    return uses;
  }

  /** Each package and its source files (its top-level classes) under runtime/src/main/java. */
  static Map<String, Integer> sourceFiles() {
    Path sources = Path.of("src", "main", "java", "io", "vivace").toAbsolutePath();
    Map<String, Integer> counts = new TreeMap<>();
    try (var files = Files.walk(sources)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        String pkg = sources.relativize(file.getParent()).toString().replace('/', '.');
        counts.merge(pkg, 1, Integer::sum);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return counts;
  }

  static Path architecturePage() {
    return Path.of("..", "docs", "architecture.md").toAbsolutePath().normalize();
  }

  static String architectureText() {
    try {
      return Files.readString(architecturePage(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The layers, top first: one line of the page's {@code layers} block each, its packages separated
   * by commas, what follows {@code #} a comment.
   */
  static List<List<String>> layers() {
    List<List<String>> layers = new ArrayList<>();
    for (String line : layersBlock()) {
      if (!line.startsWith(ALLOWED)) {
        layers.add(List.of(line.split("\\s*,\\s*")));
      }
    }
    return layers;
  }

  /** The block's {@code allowed for now: a -> b} lines: dependencies that point up, known and about to go. */
  static List<String[]> allowedForNow() {
    List<String[]> allowed = new ArrayList<>();
    for (String line : layersBlock()) {
      if (line.startsWith(ALLOWED)) {
        String[] edge = line.substring(ALLOWED.length()).split("->");
        allowed.add(new String[] {edge[0].trim(), edge[1].trim()});
      }
    }
    return allowed;
  }

  /** The block's lines without comments and blank lines. */
  private static List<String> layersBlock() {
    Matcher block = LAYERS_BLOCK.matcher(architectureText());
    if (!block.find()) {
      throw new IllegalStateException(architecturePage() + " has no ```layers block");
    }
    List<String> lines = new ArrayList<>();
    for (String line : block.group(1).split("\n")) {
      String text = line.replaceAll("#.*", "").trim();
      if (!text.isEmpty()) {
        lines.add(text);
      }
    }
    return lines;
  }
}
