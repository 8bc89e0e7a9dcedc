package io.vivace.shuffle.net;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;

/**
 * Where one map's output lives: the executor's host and shuffle port, and the attempt that made
 * it (its output is served under that attempt's id, so a re-run map is never confused with a lost
 * one). A {@link Writable}: it travels in a reduce's assignment.
 */
public final class MapOutputLocation implements Writable {

  private int mapIndex;
  private String host;
  private int port;
  private String attemptId;

  public MapOutputLocation() {
  }

  public MapOutputLocation(int mapIndex, String host, int port, String attemptId) {
    this.mapIndex = mapIndex;
    this.host = host;
    this.port = port;
    this.attemptId = attemptId;
  }

  public int mapIndex() {
    return mapIndex;
  }

  public String host() {
    return host;
  }

  public int port() {
    return port;
  }

  public String attemptId() {
    return attemptId;
  }

  @Override
  public void write(DataOutput out) throws IOException {
    out.writeInt(mapIndex);
    Text.writeString(out, host);
    out.writeInt(port);
    Text.writeString(out, attemptId);
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    mapIndex = in.readInt();
    host = Text.readString(in);
    port = in.readInt();
    attemptId = Text.readString(in);
  }

  @Override
  public String toString() {
    return "map " + mapIndex + " (" + attemptId + ") at " + host + ":" + port;
  }
}
