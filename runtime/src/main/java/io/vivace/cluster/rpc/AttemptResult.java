package io.vivace.cluster.rpc;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapred.Counters;

/**
 * How an attempt ended on an executor: succeeded or not, its counters, why it failed, and for a
 * reduce that could not fetch map outputs, which maps' outputs are lost (they must run again).
 */
public final class AttemptResult implements Writable {

  private String attemptId;
  private boolean succeeded;
  private Counters counters = new Counters();
  private String diagnostics = "";
  private int[] lostMaps = new int[0];

  public AttemptResult() {
  }

  public AttemptResult(String attemptId, boolean succeeded, Counters counters, String diagnostics, int[] lostMaps) {
    this.attemptId = attemptId;
    this.succeeded = succeeded;
    this.counters = counters;
    this.diagnostics = diagnostics;
    this.lostMaps = lostMaps;
  }

  public String attemptId() {
    return attemptId;
  }

  public boolean succeeded() {
    return succeeded;
  }

  public Counters counters() {
    return counters;
  }

  public String diagnostics() {
    return diagnostics;
  }

  public int[] lostMaps() {
    return lostMaps;
  }

  @Override
  public void write(DataOutput out) throws IOException {
    Text.writeString(out, attemptId);
    out.writeBoolean(succeeded);
    counters.write(out);
    Text.writeString(out, diagnostics);
    out.writeInt(lostMaps.length);
    for (int m : lostMaps) {
      out.writeInt(m);
    }
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    attemptId = Text.readString(in);
    succeeded = in.readBoolean();
    counters = new Counters();
    counters.readFields(in);
    diagnostics = Text.readString(in);
    lostMaps = new int[in.readInt()];
    for (int i = 0; i < lostMaps.length; i++) {
      lostMaps[i] = in.readInt();
    }
  }
}
