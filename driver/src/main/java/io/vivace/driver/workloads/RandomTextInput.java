package io.vivace.driver.workloads;

import io.vivace.driver.WorkloadContext;
import java.util.Map;
import org.apache.hadoop.examples.RandomTextWriter;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;

/**
 * RandomTextWriter's sentences as text ({@code key TAB value} lines), one file per map; the
 * checksum is the SHA-256 of the files, and the marker keeps their number of words.
 */
final class RandomTextInput extends RandomWritersInput {

  static final String WORDS = "words";

  RandomTextInput(long bytes, int maps) {
    super("randomtextwriter", bytes, maps);
  }

  @Override
  public void generate(WorkloadContext ctx, Path dir) throws Exception {
    runWriter(ctx, dir, new RandomTextWriter(), RandomTextWriter.TOTAL_BYTES,
        RandomTextWriter.BYTES_PER_MAP, "-outFormat", TextOutputFormat.class.getName(),
        dir.toString());
  }

  @Override
  public Fingerprint fingerprint(WorkloadContext ctx, Path dir) throws Exception {
    WordScan scan = WordScan.of(dir.getFileSystem(ctx.conf()), dir);
    return new Fingerprint(scan.sha256(), Map.of(WORDS, scan.words()));
  }
}
