package io.vivace.docs;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.docs.RepositoryDocs.Found;
import io.vivace.docs.RepositoryDocs.Page;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every class a page names as {@code package/Class} (or {@code package/Class.member}, or fully
 * qualified as {@code io.vivace.package.Class}) and every repository path it names in a code span
 * exists: a renamed class or a moved file fails this test until the page says where it went.
 * Placeholders ({@code <job id>}, {@code *}, {@code $VAR}, ...) and what the build or a run makes
 * (under {@code target/}, {@code work/}, hidden folders) are not checked.
 */
class DocNamesTest {

  /** {@code exec/WorkerPool}, {@code shuffle.net/MapOutputServer.start}, {@code cluster/session/Dispatcher}. */
  private static final Pattern CLASS_REF =
      Pattern.compile("([a-z][a-z0-9_]*(?:[./][a-z][a-z0-9_]*)*)/([A-Z][A-Za-z0-9_]*)((?:[.#][A-Za-z_][A-Za-z0-9_]*)*)(?:\\(\\))?");
  private static final Pattern QUALIFIED = Pattern.compile("io\\.vivace(?:\\.[A-Za-z_][A-Za-z0-9_]*)+");
  private static final Pattern FILE_NAME =
      Pattern.compile(".*/[^/]+\\.(py|java|md|ya?ml|sh|xml|properties|html|toml|txt|json|tsv|css|js)");
  private static final Pattern PLACEHOLDER = Pattern.compile("[*<>{}$%=~:@?\\[\\]|\\\\…]|\\.\\.\\.");
  private static List<Path> javaRoots;

  @Test
  void everyClassAndPathAPageNamesExists() {
    Path root = RepositoryDocs.root();
    List<String> missing = new ArrayList<>();
    for (Page page : RepositoryDocs.pages()) {
      for (Found span : page.codeSpans()) {
        for (String word : span.text().trim().split("\\s+")) {
          String name = trim(word);
          String problem = problem(root, page, name);
          if (problem != null) {
            missing.add(page.where(span.line()) + ": `" + name + "` " + problem);
          }
        }
      }
    }
    assertTrue(missing.isEmpty(), "names of classes and paths that do not exist:\n" + String.join("\n", missing));
  }

  /** Why {@code name} does not exist, or null when it does or is not a name this test checks. */
  static String problem(Path root, Page page, String name) {
    if (name.isEmpty() || name.startsWith("/") || name.startsWith("-") || PLACEHOLDER.matcher(name).find()
        || firstSegment(name).matches("[A-Z][A-Z_]+")) { // DIR/conf/...: a placeholder
      return null;
    }
    Matcher qualified = QUALIFIED.matcher(name);
    if (qualified.matches()) {
      return qualifiedExists(root, name) ? null : "is no class or package of any module";
    }
    Matcher classRef = CLASS_REF.matcher(name);
    boolean path = name.contains("/") && (Files.exists(root.resolve(firstSegment(name))) || FILE_NAME.matcher(name).matches());
    if (!classRef.matches() && !path) {
      return null;
    }
    if (pathExists(root, page, name)) {
      return null;
    }
    if (classRef.matches()) {
      return classProblem(root, classRef.group(1), classRef.group(2), classRef.group(3));
    }
    return "is no file or folder of the repository";
  }

  private static boolean pathExists(Path root, Page page, String name) {
    String path = name.startsWith("./") ? name.substring(2) : name;
    if (path.startsWith("io/vivace/")) {
      // a file of a package's class path (a resource, or one the build writes there): its package must exist
      Path pkg = Path.of(path).getParent();
      return javaRoots(root).stream().anyMatch(sources -> Files.isDirectory(sources.resolve(pkg)));
    }
    for (Path base : List.of(root, page.file().getParent(), root.resolve("lab"), root.resolve("lab/src/vivace_lab"))) {
      Path resolved = base.resolve(path).normalize();
      if (!resolved.startsWith(root)) {
        continue;
      }
      if (!RepositoryDocs.isSource(root.relativize(resolved))) {
        return true; // what a build or a run makes
      }
      for (String extension : List.of("", ".java", ".py")) {
        if (Files.exists(resolved.resolveSibling(resolved.getFileName() + extension))) {
          return true;
        }
      }
    }
    return false;
  }

  /** Why {@code pkg/cls} with {@code members} (".a.b") is not a class of a module, or null. */
  private static String classProblem(Path root, String pkg, String cls, String members) {
    String folder = pkg.replace('.', '/');
    boolean packageFound = false;
    for (Path sources : javaRoots(root)) {
      Path dir = sources.resolve("io/vivace").resolve(folder);
      packageFound |= Files.isDirectory(dir);
      Path file = dir.resolve(cls + ".java");
      if (Files.isRegularFile(file)) {
        String member = members.isEmpty() ? null : members.substring(1).split("[.#]")[0];
        if (member != null && !read(file).matches("(?s).*\\b" + Pattern.quote(member) + "\\b.*")) {
          return "names " + member + ", which " + root.relativize(file) + " does not have";
        }
        return null;
      }
    }
    return packageFound ? "is no class of package io.vivace." + pkg.replace('/', '.')
        : "names no package of any module (io.vivace." + pkg.replace('/', '.') + ")";
  }

  private static boolean qualifiedExists(Path root, String name) {
    String[] parts = name.split("\\.");
    for (Path sources : javaRoots(root)) {
      // the longest prefix that is a file names a class; members and nested classes may follow it
      Path path = sources;
      for (String part : parts) {
        if (Files.isRegularFile(path.resolve(part + ".java"))) {
          return true;
        }
        path = path.resolve(part);
      }
      if (Files.isDirectory(path)) {
        return true;
      }
    }
    return false;
  }

  /** Every Maven module's source and resource folders ({@code src/main/java}, ...), whatever modules there are. */
  private static synchronized List<Path> javaRoots(Path root) {
    if (javaRoots == null) {
      try (Stream<Path> dirs = Files.walk(root, 6)) {
        javaRoots = dirs.filter(Files::isDirectory)
            .filter(dir -> RepositoryDocs.isSource(root.relativize(dir)))
            .filter(dir -> dir.getNameCount() >= 3 && dir.getParent().getParent().getFileName().toString().equals("src")
                && List.of("main", "test").contains(dir.getParent().getFileName().toString())
                && List.of("java", "resources").contains(dir.getFileName().toString()))
            .toList();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return javaRoots;
  }

  private static String firstSegment(String name) {
    String path = name.startsWith("./") ? name.substring(2) : name;
    int slash = path.indexOf('/');
    return slash < 0 ? path : path.substring(0, slash);
  }

  /** The word without the punctuation of the sentence around it. */
  private static String trim(String word) {
    return word.replaceAll("^[(\"'“]+", "").replaceAll("[)\"'”,;.:]+$", "");
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
