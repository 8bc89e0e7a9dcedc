package io.vivace.driver.workloads;

import java.util.Map;

/**
 * RandomWriter's and RandomTextWriter's size keys for {@code bytes} in {@code maps} files: each
 * map writes {@code ceil(bytes / maps)}, and the total is a whole number of maps so that the tool
 * runs exactly {@code maps} of them.
 */
final class RandomWriterSettings {

  private RandomWriterSettings() {}

  static Map<String, String> of(String totalBytesKey, String bytesPerMapKey, long bytes, int maps) {
    long perMap = (bytes + maps - 1) / maps;
    return Map.of(totalBytesKey, Long.toString(perMap * maps),
        bytesPerMapKey, Long.toString(perMap));
  }
}
