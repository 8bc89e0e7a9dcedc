package io.vivace.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * The class path a job jar carries inside itself, as {@code hadoop jar} honours it: a
 * {@code classes/} folder and the jars directly under {@code lib/}. They are unpacked into a
 * temporary folder that is deleted when the JVM exits.
 */
final class NestedClassPath {

  private static final String CLASSES_DIR = "classes/";
  private static final String LIB_DIR = "lib/";

  private NestedClassPath() {}

  /** Unpacks the nested entries; returns {@code classes/} (if any), then the lib jars by name. */
  static List<Path> unpack(JobJar jar) throws IOException {
    try (JarFile jarFile = new JarFile(jar.path().toFile())) {
      List<JarEntry> nested = nestedEntries(jarFile);
      if (nested.isEmpty()) {
        return List.of();
      }
      Path dir = Files.createTempDirectory("vivace-unjar-");
      DeleteOnExit.register(dir);
      boolean hasClasses = false;
      List<Path> libJars = new ArrayList<>();
      for (JarEntry entry : nested) {
        Path target = unpack(jarFile, entry, dir);
        if (entry.getName().startsWith(CLASSES_DIR)) {
          hasClasses = true;
        } else {
          libJars.add(target);
        }
      }
      List<Path> classPath = new ArrayList<>();
      if (hasClasses) {
        classPath.add(dir.resolve(CLASSES_DIR));
      }
      libJars.sort(null);
      classPath.addAll(libJars);
      return classPath;
    }
  }

  private static List<JarEntry> nestedEntries(JarFile jarFile) {
    List<JarEntry> nested = new ArrayList<>();
    for (Enumeration<JarEntry> entries = jarFile.entries(); entries.hasMoreElements(); ) {
      JarEntry entry = entries.nextElement();
      if (isClassesEntry(entry) || isLibJar(entry)) {
        nested.add(entry);
      }
    }
    return nested;
  }

  private static boolean isClassesEntry(JarEntry entry) {
    return entry.getName().startsWith(CLASSES_DIR) && !entry.isDirectory();
  }

  private static boolean isLibJar(JarEntry entry) {
    String name = entry.getName();
    return name.startsWith(LIB_DIR) && name.endsWith(".jar") && !entry.isDirectory()
        && name.indexOf('/', LIB_DIR.length()) < 0;
  }

  private static Path unpack(JarFile jarFile, JarEntry entry, Path dir) throws IOException {
    Path target = dir.resolve(entry.getName()).normalize();
    if (!target.startsWith(dir)) {
      throw new IOException("Jar entry escapes its folder: " + entry.getName());
    }
    Files.createDirectories(target.getParent());
    try (InputStream in = jarFile.getInputStream(entry)) {
      Files.copy(in, target);
    }
    return target;
  }
}
