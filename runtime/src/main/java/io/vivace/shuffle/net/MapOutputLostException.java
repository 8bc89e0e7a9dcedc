package io.vivace.shuffle.net;

import java.io.IOException;
import java.util.List;

/**
 * A reduce could not fetch map outputs from an executor after its retries: the executor is gone,
 * or no longer holds them. The maps named must run again before a reduce can read them; the reduce
 * attempt that threw this fetched nothing it keeps.
 */
public final class MapOutputLostException extends IOException {

  private final String host;
  private final int port;
  private final List<Integer> maps;

  public MapOutputLostException(String host, int port, List<Integer> maps, String why, Throwable cause) {
    super("map output" + (maps.size() == 1 ? " of map " : "s of maps ") + joined(maps) + " lost at "
        + host + ":" + port + ": " + why, cause);
    this.host = host;
    this.port = port;
    this.maps = List.copyOf(maps);
  }

  private static String joined(List<Integer> maps) {
    return maps.size() == 1 ? maps.get(0).toString() : maps.toString();
  }

  /** The executor's host, as the maps' locations named it. */
  public String host() {
    return host;
  }

  /** The executor's shuffle port. */
  public int port() {
    return port;
  }

  /** The indexes of the maps whose outputs are lost, in increasing order. */
  public List<Integer> maps() {
    return maps;
  }
}
