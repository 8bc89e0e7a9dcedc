package io.vivace.driver;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * The string constants (CONSTANT_String entries of the constant pool: string literals, constant
 * fields' values, string concatenation recipes) of the classes of a directory or jar, read from
 * the class files as the JVM specification (4.4) lays them out.
 */
final class ClassStringConstants {

  private ClassStringConstants() {
  }

  /** The constants of every class where {@code type}'s class file came from (a directory or a jar). */
  static Set<String> besideClass(Class<?> type) throws IOException {
    URL location = type.getProtectionDomain().getCodeSource().getLocation();
    Path path;
    try {
      path = Path.of(location.toURI());
    } catch (URISyntaxException e) {
      throw new IOException(location + ": " + e.getMessage(), e);
    }
    Set<String> constants = new LinkedHashSet<>();
    if (Files.isDirectory(path)) {
      try (Stream<Path> files = Files.walk(path)) {
        for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
          try (InputStream in = Files.newInputStream(file)) {
            constants.addAll(of(in, file.toString()));
          }
        }
      }
    } else {
      try (JarFile jar = new JarFile(path.toFile())) {
        for (JarEntry entry : jar.stream().filter(e -> e.getName().endsWith(".class")).toList()) {
          try (InputStream in = jar.getInputStream(entry)) {
            constants.addAll(of(in, path + "!" + entry.getName()));
          }
        }
      }
    }
    if (constants.isEmpty()) {
      throw new IOException("no class constants found in " + path);
    }
    return constants;
  }

  static List<String> of(InputStream classFile, String name) throws IOException {
    DataInputStream in = new DataInputStream(classFile);
    if (in.readInt() != 0xCAFEBABE) {
      throw new IOException(name + " is not a class file");
    }
    in.readUnsignedShort(); // minor version
    in.readUnsignedShort(); // major version
    int count = in.readUnsignedShort();
    Map<Integer, String> utf8 = new HashMap<>();
    List<Integer> strings = new ArrayList<>();
    for (int i = 1; i < count; i++) {
      int tag = in.readUnsignedByte();
      switch (tag) {
        case 1 -> utf8.put(i, in.readUTF());
        case 8 -> strings.add(in.readUnsignedShort());
        case 7, 16, 19, 20 -> in.skipNBytes(2);
        case 15 -> in.skipNBytes(3);
        case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipNBytes(4);
        case 5, 6 -> {
          in.skipNBytes(8);
          i++; // a long or double takes two entries
        }
        default -> throw new IOException(name + ": unknown constant pool tag " + tag + " at entry " + i);
      }
    }
    List<String> out = new ArrayList<>();
    for (int index : strings) {
      out.add(utf8.get(index));
    }
    return out;
  }
}
