package io.vivace.cluster.rpc;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.io.Writable;

/** The statuses of an executor's running attempts, sent with each request for work. */
public final class StatusBatch implements Writable {

  private List<AttemptStatus> statuses = List.of();

  public StatusBatch() {
  }

  public StatusBatch(List<AttemptStatus> statuses) {
    this.statuses = statuses;
  }

  public List<AttemptStatus> statuses() {
    return statuses;
  }

  @Override
  public void write(DataOutput out) throws IOException {
    WritableLists.write(out, statuses);
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    statuses = WritableLists.read(in, AttemptStatus::new);
  }
}
