package io.vivace.jobs.avro;

import io.vivace.jobs.avro.model.Region;
import io.vivace.jobs.avro.model.User;
import java.io.OutputStream;
import java.util.Random;
import org.apache.avro.file.CodecFactory;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * Writes Avro container files of {@link User} records, as Avro's getting-started guide writes them
 * (a {@code DataFileWriter} over a {@code SpecificDatumWriter}): the input of the Avro jobs.
 * Usage: {@code GenerateUsers <dir> <files> <users per file> <seed>}.
 */
public class GenerateUsers extends Configured implements Tool {

  private static final String[] COLORS = {"red", "green", "blue", "yellow", "black", "white", "purple"};

  @Override
  public int run(String[] args) throws Exception {
    Path dir = new Path(args[0]);
    int files = Integer.parseInt(args[1]);
    int perFile = Integer.parseInt(args[2]);
    Random random = new Random(Long.parseLong(args[3]));
    FileSystem fs = dir.getFileSystem(getConf());
    Region[] regions = Region.values();
    for (int f = 0; f < files; f++) {
      try (OutputStream out = fs.create(new Path(dir, String.format("users-%03d.avro", f)));
          DataFileWriter<User> writer = new DataFileWriter<>(new SpecificDatumWriter<>(User.class))) {
        writer.setCodec(f % 2 == 0 ? CodecFactory.deflateCodec(6) : CodecFactory.nullCodec());
        writer.create(User.getClassSchema(), out);
        for (int i = 0; i < perFile; i++) {
          User user = User.newBuilder()
              .setName("user" + (f * perFile + i))
              .setFavoriteNumber(random.nextInt(5) == 0 ? null : random.nextInt(100))
              .setFavoriteColor(random.nextInt(6) == 0 ? null : COLORS[random.nextInt(COLORS.length)])
              .setRegion(regions[random.nextInt(regions.length)])
              .setAge(12 + random.nextInt(79))
              .build();
          writer.append(user);
        }
      }
    }
    return 0;
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new GenerateUsers(), args));
  }
}
