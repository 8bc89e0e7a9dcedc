package io.vivace.cluster.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SessionLibraryTest {

  @TempDir
  java.nio.file.Path dir;

  private File jar(String folder, String name, String content) throws IOException {
    java.nio.file.Path file = dir.resolve(folder).resolve(name);
    Files.createDirectories(file.getParent());
    Files.writeString(file, content);
    return file.toFile();
  }

  @Test
  void aJarNamedTwiceOnTheClassPathIsZippedOnceTheFirstOfItsName() throws Exception {
    File runtime = jar("launcher", "vivace-runtime.jar", "the launcher's");
    File other = jar("hadoop-classpath", "vivace-runtime.jar", "a second copy");
    File hadoop = jar("launcher", "hadoop-common.jar", "hadoop");
    String classPath = String.join(File.pathSeparator, runtime.getPath(), hadoop.getPath(), other.getPath(),
        runtime.getPath(), dir.resolve("classes").toString());
    List<File> jars = SessionLibrary.jarsOf(classPath);
    assertEquals(List.of(runtime, hadoop), jars);

    Configuration conf = new Configuration(false);
    conf.set("fs.defaultFS", "file:///");
    FileSystem fs = FileSystem.getLocal(conf);
    Path archive = SessionLibrary.upload(fs, new Path(dir.resolve("lib").toUri()), jars);
    List<String> names = new ArrayList<>();
    byte[] runtimeBytes = null;
    try (InputStream in = fs.open(archive); ZipInputStream zip = new ZipInputStream(in)) {
      for (ZipEntry entry = zip.getNextEntry(); entry != null; entry = zip.getNextEntry()) {
        names.add(entry.getName());
        if (entry.getName().equals("vivace-runtime.jar")) {
          runtimeBytes = zip.readAllBytes();
        }
      }
    }
    assertEquals(List.of("vivace-runtime.jar", "hadoop-common.jar"), names);
    assertArrayEquals(Files.readAllBytes(runtime.toPath()), runtimeBytes);
  }
}
