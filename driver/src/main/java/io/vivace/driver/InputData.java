package io.vivace.driver;

import java.util.Map;
import org.apache.hadoop.fs.Path;

/**
 * A workload's input: how it is generated, where it lives under the data root and how its size
 * is checked. The {@link DataStore} generates it once and reuses it while its marker matches.
 */
public interface InputData {

  /** The directory name under the data root, from the generation parameters. */
  String key();

  /** The generation parameters, kept in the marker; a different set means different data. */
  Map<String, String> params();

  long requestedBytes();

  /** Null when {@code actualBytes} is what generation should give, else what is wrong. */
  String sizeMismatch(long actualBytes);

  /** Where the data's files are within its directory. */
  default Path files(Path dir) {
    return dir;
  }

  /** Writes the data into {@code dir}, which does not exist yet, with prepare-phase jobs. */
  void generate(WorkloadContext ctx, Path dir) throws Exception;

  /** The checksum and figures of freshly generated data in {@code dir}. */
  Fingerprint fingerprint(WorkloadContext ctx, Path dir) throws Exception;

  /** See {@link PreparedData}. */
  record Fingerprint(String checksum, Map<String, Long> figures) {}
}
