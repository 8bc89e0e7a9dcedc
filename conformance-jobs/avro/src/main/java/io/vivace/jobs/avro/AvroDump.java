package io.vivace.jobs.avro;

import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.io.MD5Hash;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * A canonical text form of a job's output folder: for every visible file (no part of its path
 * starting with '_' or '.'), in path order, its path relative to the folder and, for an Avro
 * container file, its schema, its codec and its records as JSON, one a line; for any other file
 * its length and MD5. The container's sync marker, which {@code DataFileWriter} draws at random
 * for every file, is left out: it is the only part of an Avro file that differs between two runs
 * writing the same records. The last line is the total number of Avro records.
 * Usage: {@code AvroDump <output folder> <dump file> [<output folder> <dump file> ...]}.
 */
public class AvroDump extends Configured implements Tool {

  @Override
  public int run(String[] args) throws Exception {
    if (args.length == 0 || args.length % 2 != 0) {
      System.err.println("Usage: AvroDump <output folder> <dump file> [<output folder> <dump file> ...]");
      return 2;
    }
    for (int i = 0; i < args.length; i += 2) {
      dump(new Path(args[i]), new Path(args[i + 1]));
    }
    return 0;
  }

  private void dump(Path dir, Path dumpFile) throws Exception {
    FileSystem fs = dir.getFileSystem(getConf());
    String root = fs.makeQualified(dir).toUri().getPath();
    List<String> files = new ArrayList<>();
    RemoteIterator<LocatedFileStatus> it = fs.listFiles(dir, true);
    while (it.hasNext()) {
      String relative = it.next().getPath().toUri().getPath().substring(root.length() + 1);
      if (visible(relative)) {
        files.add(relative);
      }
    }
    files.sort(null);
    long total = 0;
    try (PrintWriter out = new PrintWriter(fs.create(dumpFile, true), false, StandardCharsets.UTF_8)) {
      for (String relative : files) {
        Path file = new Path(dir, relative);
        out.println("file " + relative);
        if (relative.endsWith(".avro")) {
          try (InputStream in = fs.open(file);
              DataFileStream<Object> records = new DataFileStream<>(in, new GenericDatumReader<>())) {
            out.println("schema " + records.getSchema());
            out.println("codec " + records.getMetaString("avro.codec"));
            long n = 0;
            for (Object record : records) {
              out.println(GenericData.get().toString(record));
              n++;
            }
            out.println("records " + n);
            total += n;
          }
        } else {
          try (InputStream in = fs.open(file)) {
            byte[] bytes = in.readAllBytes();
            out.println("bytes " + bytes.length + " md5 " + MD5Hash.digest(bytes));
          }
        }
      }
      out.println("total records " + total);
    }
  }

  private static boolean visible(String relative) {
    for (String part : relative.split("/")) {
      if (part.startsWith("_") || part.startsWith(".")) {
        return false;
      }
    }
    return true;
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new AvroDump(), args));
  }
}
