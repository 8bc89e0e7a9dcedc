package io.vivace.jobs.parquet;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.hadoop.util.HadoopInputFile;

/**
 * A canonical text form of the Parquet files of a job's output folder: for each {@code .parquet}
 * file and each summary file ({@code _metadata}, {@code _common_metadata}), in path order, its
 * name, its footer (writer, schema, key-value metadata, and for each row group and column chunk its
 * type, codec, encodings, value count, sizes and statistics) and, for a data file, its records, one
 * a line ({@code Group.toString} with its line breaks as " | "); then {@code total records N}.
 * A column chunk's encodings are listed in their enum's order: Parquet writes
 * them in the iteration order of a {@code HashSet} of enum constants, which follows the constants'
 * identity hash codes, so the same records can give footers that differ in that order from one
 * JVM, or one class loader of Parquet's classes, to another.
 * Usage: {@code ParquetDump <output folder> <dump file> [<output folder> <dump file> ...]}.
 */
public class ParquetDump extends Configured implements Tool {

  @Override
  public int run(String[] args) throws Exception {
    if (args.length == 0 || args.length % 2 != 0) {
      System.err.println("Usage: ParquetDump <output folder> <dump file> [<output folder> <dump file> ...]");
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
      Path p = it.next().getPath();
      if (isData(p) || isSummary(p)) {
        files.add(p);
      }
    }
    files.sort(null);
    long total = 0;
    try (PrintWriter out = new PrintWriter(fs.create(dumpFile, true), false, StandardCharsets.UTF_8)) {
      for (Path file : files) {
        out.println("file " + file.getName());
        ParquetMetadata footer;
        try (ParquetFileReader reader = ParquetFileReader.open(HadoopInputFile.fromPath(file, getConf()))) {
          footer = reader.getFooter();
        }
        out.println("created by " + footer.getFileMetaData().getCreatedBy());
        out.println("schema " + footer.getFileMetaData().getSchema().toString().replace('\n', ' '));
        for (Map.Entry<String, String> e : new TreeMap<>(footer.getFileMetaData().getKeyValueMetaData()).entrySet()) {
          out.println("metadata " + e.getKey() + "=" + e.getValue());
        }
        out.println("row groups " + footer.getBlocks().size());
        for (BlockMetaData block : footer.getBlocks()) {
          out.println("row group rows " + block.getRowCount() + " bytes " + block.getTotalByteSize());
          for (ColumnChunkMetaData column : block.getColumns()) {
            out.println("column " + column.getPath() + " " + column.getPrimitiveType() + " " + column.getCodec()
                + " encodings " + new TreeSet<>(column.getEncodings()) + " values " + column.getValueCount()
                + " size " + column.getTotalSize() + " unencoded " + column.getTotalUncompressedSize()
                + " statistics " + column.getStatistics());
          }
        }
        if (isSummary(file)) {
          continue;
        }
        long n = 0;
        try (ParquetReader<Group> reader = ParquetReader.builder(new GroupReadSupport(), file).withConf(getConf()).build()) {
          for (Group g = reader.read(); g != null; g = reader.read()) {
            out.println(g.toString().trim().replace("\n", " | "));
            n++;
          }
        }
        out.println("records " + n);
        total += n;
      }
      out.println("total records " + total);
    }
  }

  private static boolean isData(Path p) {
    return p.getName().endsWith(".parquet") && !p.getName().startsWith(".") && !p.getName().startsWith("_");
  }

  /** The footers of all files that {@code ParquetOutputCommitter} writes beside them. */
  private static boolean isSummary(Path p) {
    return p.getName().equals(ParquetFileWriter.PARQUET_METADATA_FILE) || p.getName().equals(ParquetFileWriter.PARQUET_COMMON_METADATA_FILE);
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new ParquetDump(), args));
  }
}
