package io.vivace.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/** A job jar on disk, checked to be a readable jar, with the Main-Class its manifest names. */
final class JobJar {

  private final Path path;
  private final String manifestMainClass;

  private JobJar(Path path, String manifestMainClass) {
    this.path = path;
    this.manifestMainClass = manifestMainClass;
  }

  static JobJar open(Path file) throws LaunchException {
    Path path = file.toAbsolutePath().normalize();
    if (!Files.isRegularFile(path)) {
      throw new LaunchException("JAR does not exist or is not a normal file: " + path);
    }
    try (JarFile jar = new JarFile(path.toFile())) {
      return new JobJar(path, mainClassOf(jar.getManifest()));
    } catch (IOException e) {
      throw new LaunchException("Error opening job jar: " + path + ": " + e.getMessage());
    }
  }

  private static String mainClassOf(Manifest manifest) {
    if (manifest == null) {
      return null;
    }
    String mainClass = manifest.getMainAttributes().getValue(Attributes.Name.MAIN_CLASS);
    return mainClass == null || mainClass.isBlank() ? null : mainClass.trim();
  }

  Path path() {
    return path;
  }

  Optional<String> manifestMainClass() {
    return Optional.ofNullable(manifestMainClass);
  }
}
