package io.vivace.cluster.rpc;

import io.vivace.shuffle.net.MapOutputLocation;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.security.Credentials;

/**
 * An attempt the session gives an executor to run: its job ({@link JobToRead}), the attempt, and for
 * a reduce where every map's output is.
 */
public final class AttemptAssignment implements Writable {

  private JobToRead job = new JobToRead();
  private String attemptId;
  private boolean map;
  private int index;
  private List<MapOutputLocation> mapOutputs = List.of();

  public AttemptAssignment() {
  }

  public AttemptAssignment(String jobId, String submitDir, Credentials credentials, String attemptId, boolean map,
                           int index, List<MapOutputLocation> mapOutputs) {
    this.job = new JobToRead(jobId, submitDir, credentials);
    this.attemptId = attemptId;
    this.map = map;
    this.index = index;
    this.mapOutputs = mapOutputs;
  }

  public JobToRead job() {
    return job;
  }

  public String jobId() {
    return job.jobId();
  }

  public String submitDir() {
    return job.submitDir();
  }

  public Credentials credentials() {
    return job.credentials();
  }

  public String attemptId() {
    return attemptId;
  }

  public boolean isMap() {
    return map;
  }

  public int index() {
    return index;
  }

  /** For a reduce: where each map's output is, in map order. */
  public List<MapOutputLocation> mapOutputs() {
    return mapOutputs;
  }

  @Override
  public void write(DataOutput out) throws IOException {
    job.write(out);
    Text.writeString(out, attemptId);
    out.writeBoolean(map);
    out.writeInt(index);
    WritableLists.write(out, mapOutputs);
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    job = new JobToRead();
    job.readFields(in);
    attemptId = Text.readString(in);
    map = in.readBoolean();
    index = in.readInt();
    mapOutputs = WritableLists.read(in, MapOutputLocation::new);
  }
}
