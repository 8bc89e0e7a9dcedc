package io.vivace.cluster.rpc;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;

/** How a running attempt does, as its executor last saw it: progress, status line, activity. */
public final class AttemptStatus implements Writable {

  private String attemptId;
  private float progress;
  private String status;
  private long activity;

  public AttemptStatus() {
  }

  public AttemptStatus(String attemptId, float progress, String status, long activity) {
    this.attemptId = attemptId;
    this.progress = progress;
    this.status = status;
    this.activity = activity;
  }

  public String attemptId() {
    return attemptId;
  }

  public float progress() {
    return progress;
  }

  public String status() {
    return status;
  }

  public long activity() {
    return activity;
  }

  @Override
  public void write(DataOutput out) throws IOException {
    Text.writeString(out, attemptId);
    out.writeFloat(progress);
    Text.writeString(out, status);
    out.writeLong(activity);
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    attemptId = Text.readString(in);
    progress = in.readFloat();
    status = Text.readString(in);
    activity = in.readLong();
  }
}
