package io.vivace.driver;

import java.util.Map;
import org.apache.hadoop.fs.Path;

/**
 * A workload's input after the prepare phase. {@code figures} are workload-defined facts about
 * the data measured when it was generated (e.g. wordcount's number of words); they live in the
 * data's marker, not in the run record.
 */
public record PreparedData(Path path, long requestedBytes, long actualBytes, boolean reused,
    String checksum, Map<String, Long> figures) {

  public long figure(String name) {
    Long value = figures.get(name);
    if (value == null) {
      throw new IllegalStateException("the data's marker has no " + name);
    }
    return value;
  }
}
