package io.vivace.realcluster;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.apache.hadoop.conf.Configuration;

/**
 * One configuration folder's site files, each key in the file Hadoop reads it from:
 * {@code core-site.xml}, {@code hdfs-site.xml}, {@code yarn-site.xml}, {@code mapred-site.xml}.
 */
final class SiteFiles {

  final Configuration core = new Configuration(false);
  final Configuration hdfs = new Configuration(false);
  final Configuration yarn = new Configuration(false);
  final Configuration mapred = new Configuration(false);

  void writeTo(Path dir) throws IOException {
    write(dir.resolve("core-site.xml"), core);
    write(dir.resolve("hdfs-site.xml"), hdfs);
    write(dir.resolve("yarn-site.xml"), yarn);
    write(dir.resolve("mapred-site.xml"), mapred);
  }

  static void write(Path file, Configuration conf) throws IOException {
    Files.createDirectories(file.getParent());
    Path temp = file.resolveSibling("." + file.getFileName() + ".tmp");
    try (OutputStream out = Files.newOutputStream(temp)) {
      conf.writeXml(out);
    }
    Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}
