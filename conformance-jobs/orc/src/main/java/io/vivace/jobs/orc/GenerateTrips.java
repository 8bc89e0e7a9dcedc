package io.vivace.jobs.orc;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ListColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.apache.orc.CompressionKind;
import org.apache.orc.OrcFile;
import org.apache.orc.Writer;

/**
 * Writes ORC files of trips with ORC's core writer API (row batches of column vectors), the input
 * of the ORC jobs. Usage: {@code GenerateTrips <dir> <files> <trips per file> <seed>}.
 */
public class GenerateTrips extends Configured implements Tool {

  static final String[] VENDORS = {"acme", "bolt", "cab", "drive", "easy"};
  static final String[] TAGS = {"airport", "night", "card", "cash", "shared", "toll", "wait"};

  @Override
  public int run(String[] args) throws Exception {
    Path dir = new Path(args[0]);
    int files = Integer.parseInt(args[1]);
    int perFile = Integer.parseInt(args[2]);
    Random random = new Random(Long.parseLong(args[3]));
    for (int f = 0; f < files; f++) {
      OrcFile.WriterOptions options = OrcFile.writerOptions(getConf()).setSchema(Trips.SCHEMA)
          .compress(f % 2 == 0 ? CompressionKind.ZLIB : CompressionKind.NONE);
      try (Writer writer = OrcFile.createWriter(new Path(dir, String.format("trips-%03d.orc", f)), options)) {
        VectorizedRowBatch batch = Trips.SCHEMA.createRowBatch();
        BytesColumnVector vendor = (BytesColumnVector) batch.cols[0];
        ListColumnVector tags = (ListColumnVector) batch.cols[6];
        BytesColumnVector tag = (BytesColumnVector) tags.child;
        for (int i = 0; i < perFile; i++) {
          int row = batch.size++;
          vendor.setVal(row, VENDORS[random.nextInt(VENDORS.length)].getBytes(StandardCharsets.UTF_8));
          ((LongColumnVector) batch.cols[1]).vector[row] = random.nextInt(30);
          ((LongColumnVector) batch.cols[2]).vector[row] = 1 + random.nextInt(28);
          ((LongColumnVector) batch.cols[3]).vector[row] = 1 + random.nextInt(4);
          long fare = 300 + random.nextInt(6_000);
          ((LongColumnVector) batch.cols[4]).vector[row] = fare;
          ((LongColumnVector) batch.cols[5]).vector[row] = random.nextInt(3) == 0 ? 0 : fare * random.nextInt(25) / 100;
          int n = random.nextInt(3);
          tags.offsets[row] = tags.childCount;
          tags.lengths[row] = n;
          tags.childCount += n;
          tag.ensureSize(tags.childCount, true);
          for (int t = 0; t < n; t++) {
            tag.setVal((int) tags.offsets[row] + t, TAGS[random.nextInt(TAGS.length)].getBytes(StandardCharsets.UTF_8));
          }
          if (batch.size == batch.getMaxSize()) {
            writer.addRowBatch(batch);
            batch.reset();
          }
        }
        if (batch.size > 0) {
          writer.addRowBatch(batch);
        }
      }
    }
    return 0;
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new GenerateTrips(), args));
  }
}
