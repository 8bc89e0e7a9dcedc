package io.vivace.jobs.parquet;

import java.util.Random;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * Writes Parquet files of sales with {@code ExampleParquetWriter} (the input of the Parquet jobs).
 * Usage: {@code GenerateSales <dir> <files> <sales per file> <seed>}.
 */
public class GenerateSales extends Configured implements Tool {

  @Override
  public int run(String[] args) throws Exception {
    Path dir = new Path(args[0]);
    int files = Integer.parseInt(args[1]);
    int perFile = Integer.parseInt(args[2]);
    Random random = new Random(Long.parseLong(args[3]));
    SimpleGroupFactory groups = new SimpleGroupFactory(Sales.SCHEMA);
    for (int f = 0; f < files; f++) {
      try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(new Path(dir, String.format("sales-%03d.parquet", f)))
          .withConf(getConf())
          .withType(Sales.SCHEMA)
          .withCompressionCodec(f % 2 == 0 ? CompressionCodecName.GZIP : CompressionCodecName.UNCOMPRESSED)
          .build()) {
        for (int i = 0; i < perFile; i++) {
          Group sale = groups.newGroup()
              .append("store", "store-" + random.nextInt(9))
              .append("product", "product-" + random.nextInt(40))
              .append("day", 1 + random.nextInt(30))
              .append("quantity", 1 + random.nextInt(12))
              .append("cents", 50L + random.nextInt(20_000));
          if (random.nextInt(4) == 0) {
            sale.append("coupon", "C" + random.nextInt(5));
          }
          writer.write(sale);
        }
      }
    }
    return 0;
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new GenerateSales(), args));
  }
}
