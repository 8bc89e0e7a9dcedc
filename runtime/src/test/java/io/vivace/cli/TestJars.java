package io.vivace.cli;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/** Compiles small Java programs and packs jars for the launcher tests. */
final class TestJars {

  private TestJars() {}

  /**
   * Compiles {@code sources} (class name to source text) into a new folder under {@code workDir}
   * against this JVM's test class path plus {@code extraClassPath}.
   */
  static Path compile(Path workDir, Map<String, String> sources, Path... extraClassPath)
      throws IOException {
    Path sourceDir = Files.createTempDirectory(workDir, "src-");
    Path classesDir = Files.createTempDirectory(workDir, "classes-");
    List<String> args = new ArrayList<>(
        List.of("-d", classesDir.toString(), "-classpath", classPath(extraClassPath)));
    for (Map.Entry<String, String> source : sources.entrySet()) {
      Path file = sourceDir.resolve(source.getKey().replace('.', '/') + ".java");
      Files.createDirectories(file.getParent());
      Files.writeString(file, source.getValue(), StandardCharsets.UTF_8);
      args.add(file.toString());
    }
    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    if (compiler == null || compiler.run(null, null, null, args.toArray(String[]::new)) != 0) {
      throw new IllegalStateException("Compiling " + sources.keySet() + " failed (see stderr)");
    }
    return classesDir;
  }

  private static String classPath(Path... extra) {
    StringBuilder classPath = new StringBuilder(VivaceScript.testClassPath());
    for (Path path : extra) {
      classPath.append(File.pathSeparator).append(path);
    }
    return classPath.toString();
  }

  /** A jar being assembled: entries in the order added, and an optional Main-Class. */
  static final class Builder {

    private final Map<String, byte[]> entries = new LinkedHashMap<>();
    private String mainClass;

    Builder mainClass(String className) {
      this.mainClass = className;
      return this;
    }

    Builder entry(String name, byte[] content) {
      entries.put(name, content);
      return this;
    }

    Builder entry(String name, String content) {
      return entry(name, content.getBytes(StandardCharsets.UTF_8));
    }

    /** Adds every file under {@code classesDir}, its name prefixed by {@code prefix}. */
    Builder classes(Path classesDir, String prefix) throws IOException {
      try (Stream<Path> files = Files.walk(classesDir)) {
        for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
          String name = classesDir.relativize(file).toString().replace(File.separatorChar, '/');
          entry(prefix + name, Files.readAllBytes(file));
        }
      }
      return this;
    }

    Path writeTo(Path jarFile) throws IOException {
      Manifest manifest = new Manifest();
      manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
      if (mainClass != null) {
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, mainClass);
      }
      try (OutputStream out = Files.newOutputStream(jarFile);
          JarOutputStream jar = new JarOutputStream(out, manifest)) {
        for (Map.Entry<String, byte[]> entry : entries.entrySet()) {
          jar.putNextEntry(new JarEntry(entry.getKey()));
          jar.write(entry.getValue());
          jar.closeEntry();
        }
      }
      return jarFile;
    }
  }
}
