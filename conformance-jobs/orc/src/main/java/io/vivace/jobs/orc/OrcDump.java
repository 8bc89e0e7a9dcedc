package io.vivace.jobs.orc;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.apache.orc.ColumnStatistics;
import org.apache.orc.OrcFile;
import org.apache.orc.Reader;
import org.apache.orc.StripeInformation;
import org.apache.orc.mapred.OrcMapredRecordReader;
import org.apache.orc.mapred.OrcStruct;

/**
 * A text form of the ORC files of a job's output folder: for each visible file, in path order, its
 * name, what its footer says (schema, compression, file and writer versions, stripes with their
 * row counts, column statistics, user metadata) and its rows as {@code OrcStruct}s, one a line;
 * then {@code total rows N}.
 * Usage: {@code OrcDump <output folder> <dump file> [<output folder> <dump file> ...]}.
 */
public class OrcDump extends Configured implements Tool {

  @Override
  public int run(String[] args) throws Exception {
    if (args.length == 0 || args.length % 2 != 0) {
      System.err.println("Usage: OrcDump <output folder> <dump file> [<output folder> <dump file> ...]");
      return 2;
    }
    for (int i = 0; i < args.length; i += 2) {
      dump(new Path(args[i]), new Path(args[i + 1]));
    }
    return 0;
  }

  private void dump(Path dir, Path dumpFile) throws Exception {
    FileSystem fs = dir.getFileSystem(getConf());
    List<Path> files = new ArrayList<>();
    RemoteIterator<LocatedFileStatus> it = fs.listFiles(dir, true);
    while (it.hasNext()) {
      LocatedFileStatus status = it.next();
      String name = status.getPath().getName();
      if (!name.startsWith("_") && !name.startsWith(".")) {
        files.add(status.getPath());
      }
    }
    files.sort(null);
    long total = 0;
    try (PrintWriter out = new PrintWriter(fs.create(dumpFile, true), false, StandardCharsets.UTF_8)) {
      for (Path file : files) {
        out.println("file " + file.getName());
        try (Reader reader = OrcFile.createReader(file, OrcFile.readerOptions(getConf()))) {
          out.println("schema " + reader.getSchema());
          out.println("compression " + reader.getCompressionKind() + " " + reader.getCompressionSize());
          out.println("versions file " + reader.getFileVersion() + " writer " + reader.getWriterVersion()
              + " software " + reader.getSoftwareVersion());
          for (StripeInformation stripe : reader.getStripes()) {
            out.println("stripe rows " + stripe.getNumberOfRows() + " length " + stripe.getLength());
          }
          ColumnStatistics[] statistics = reader.getStatistics();
          for (int c = 0; c < statistics.length; c++) {
            out.println("column " + c + " " + statistics[c].toString().replace('\n', ' '));
          }
          for (String key : new TreeSet<>(reader.getMetadataKeys())) {
            out.println("metadata " + key + " " + StandardCharsets.UTF_8.decode(reader.getMetadataValue(key)));
          }
          OrcMapredRecordReader<OrcStruct> rows = new OrcMapredRecordReader<>(reader.rows(), reader.getSchema());
          OrcStruct row = rows.createValue();
          long n = 0;
          while (rows.next(NullWritable.get(), row)) {
            out.println(row);
            n++;
          }
          rows.close();
          out.println("rows " + n);
          total += n;
        }
      }
      out.println("total rows " + total);
    }
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new OrcDump(), args));
  }
}
