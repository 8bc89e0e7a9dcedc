package io.vivace.cluster.rpc;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.io.Writable;

/** The ends of attempts an executor reports in one call: every end since its previous report, in order. */
public final class AttemptResults implements Writable {

  private List<AttemptResult> results = List.of();

  public AttemptResults() {
  }

  public AttemptResults(List<AttemptResult> results) {
    this.results = results;
  }

  public List<AttemptResult> results() {
    return results;
  }

  @Override
  public void write(DataOutput out) throws IOException {
    WritableLists.write(out, results);
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    results = WritableLists.read(in, AttemptResult::new);
  }
}
