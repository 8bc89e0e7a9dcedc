package io.vivace.cluster.rpc;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;

/** What an executor tells the session when it joins: its container, host, shuffle port and slots. */
public final class ExecutorInfo implements Writable {

  private String containerId;
  private String host;
  private int shufflePort;
  private int slots;

  public ExecutorInfo() {
  }

  public ExecutorInfo(String containerId, String host, int shufflePort, int slots) {
    this.containerId = containerId;
    this.host = host;
    this.shufflePort = shufflePort;
    this.slots = slots;
  }

  public String containerId() {
    return containerId;
  }

  public String host() {
    return host;
  }

  public int shufflePort() {
    return shufflePort;
  }

  public int slots() {
    return slots;
  }

  @Override
  public void write(DataOutput out) throws IOException {
    Text.writeString(out, containerId);
    Text.writeString(out, host);
    out.writeInt(shufflePort);
    out.writeInt(slots);
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    containerId = Text.readString(in);
    host = Text.readString(in);
    shufflePort = in.readInt();
    slots = in.readInt();
  }
}
