package io.vivace.cluster.rpc;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.io.Writable;

/**
 * The status of every attempt an executor holds (given to it and not yet reported to the session,
 * whether it runs or waits for a worker), sent with each request for work: the session takes an
 * attempt it gave in an earlier answer and finds missing here for one whose end was lost.
 */
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
