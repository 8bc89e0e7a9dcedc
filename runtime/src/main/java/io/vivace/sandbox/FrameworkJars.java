package io.vivace.sandbox;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.HashSet;
import java.util.Set;

/**
 * The framework: Vivace's own classes and the jars of its class path (Hadoop's client and their
 * dependencies), by file name as the build listed them in {@value #LIST}. Classes from there are
 * loaded once and shared by every job; no job's class path entry is ever one of these.
 */
final class FrameworkJars {

  static final String LIST = "framework-jars.txt";

  private static final FrameworkJars INSTANCE = load();

  private final Set<String> jarNames;
  private final String ownLocation;

  private FrameworkJars(Set<String> jarNames, String ownLocation) {
    this.jarNames = jarNames;
    this.ownLocation = ownLocation;
  }

  static FrameworkJars get() {
    return INSTANCE;
  }

  /** True when {@code entry} (an absolute local path) holds framework classes. */
  boolean contains(String entry) {
    if (entry.equals(ownLocation)) {
      return true;
    }
    return entry.endsWith(".jar") && jarNames.contains(Path.of(entry).getFileName().toString());
  }

  private static FrameworkJars load() {
    Set<String> names = new HashSet<>();
    try (InputStream in = FrameworkJars.class.getResourceAsStream(LIST)) {
      if (in == null) {
        throw new IllegalStateException("the runtime's build did not list its class path: "
            + FrameworkJars.class.getPackageName().replace('.', '/') + "/" + LIST + " is missing");
      }
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
      for (String element : text.split("[:;\\s]+")) {
        if (!element.isEmpty()) {
          names.add(element.substring(element.lastIndexOf('/') + 1));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    CodeSource own = FrameworkJars.class.getProtectionDomain().getCodeSource();
    String location = own == null ? "" : ClassPathEntries.of(own.getLocation());
    return new FrameworkJars(names, location == null ? "" : location);
  }
}
