package io.vivace.cluster.rpc;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.security.Credentials;

/**
 * A job of the session as an executor reads it back: its id, its staging folder (read unless the
 * session holds a description of the job) and its credentials.
 */
public final class JobToRead implements Writable {

  private String jobId;
  private String submitDir;
  private Credentials credentials = new Credentials();

  public JobToRead() {
  }

  public JobToRead(String jobId, String submitDir, Credentials credentials) {
    this.jobId = jobId;
    this.submitDir = submitDir;
    this.credentials = credentials;
  }

  public String jobId() {
    return jobId;
  }

  public String submitDir() {
    return submitDir;
  }

  public Credentials credentials() {
    return credentials;
  }

  @Override
  public void write(DataOutput out) throws IOException {
    Text.writeString(out, jobId);
    Text.writeString(out, submitDir);
    credentials.write(out);
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    jobId = Text.readString(in);
    submitDir = Text.readString(in);
    credentials = new Credentials();
    credentials.readFields(in);
  }
}
