package io.vivace.driver.workloads;

import io.vivace.driver.DataFiles;
import io.vivace.driver.GeneratedSize;
import io.vivace.driver.InputData;
import io.vivace.driver.Phase;
import io.vivace.driver.WorkloadContext;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.examples.RandomTextWriter;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;

/**
 * RandomTextWriter's sentences as text ({@code key TAB value} lines), one file per map; the
 * checksum is the SHA-256 of the files, and the marker keeps their number of words.
 */
final class RandomTextInput implements InputData {

  static final String WORDS = "words";

  private final long bytes;
  private final int maps;

  RandomTextInput(long bytes, int maps) {
    this.bytes = bytes;
    this.maps = maps;
  }

  @Override
  public String key() {
    return "randomtextwriter-bytes=" + bytes + "-maps=" + maps;
  }

  @Override
  public Map<String, String> params() {
    Map<String, String> params = new LinkedHashMap<>();
    params.put("bytes", Long.toString(bytes));
    params.put("maps", Integer.toString(maps));
    return params;
  }

  @Override
  public long requestedBytes() {
    return bytes;
  }

  @Override
  public String sizeMismatch(long actualBytes) {
    return GeneratedSize.ofRandomWriter(bytes, maps, actualBytes);
  }

  @Override
  public void generate(WorkloadContext ctx, Path dir) throws Exception {
    ctx.runTool(Phase.PREPARE, "randomtextwriter", new RandomTextWriter(),
        RandomWriterSettings.of(RandomTextWriter.TOTAL_BYTES, RandomTextWriter.BYTES_PER_MAP,
            bytes, maps),
        "-outFormat", TextOutputFormat.class.getName(), dir.toString());
    DataFiles.checkFileCount(dir.getFileSystem(ctx.conf()), dir, maps, "randomtextwriter");
  }

  @Override
  public Fingerprint fingerprint(WorkloadContext ctx, Path dir) throws Exception {
    WordScan scan = WordScan.of(dir.getFileSystem(ctx.conf()), dir);
    return new Fingerprint(scan.sha256(), Map.of(WORDS, scan.words()));
  }
}
