package io.vivace.submit;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableUtils;

/**
 * What Hadoop's job client wrote to submit a job that needs nothing else staged, as bytes: its
 * {@code job.xml}, {@code job.split} and {@code job.splitmetainfo} (the job jar is named in
 * {@code job.xml}, on the cluster's file system). It travels to a session in a call instead of
 * through the cluster's file system, and is written back into a local folder wherever the job is
 * read back ({@link SubmissionLoader} reads that folder as it reads a staging folder).
 */
public final class JobDescription implements Writable {

  /** The files of a submit folder a description carries, as Hadoop's JobSubmissionFiles names them. */
  static final String JOB_XML = "job.xml";
  static final String SPLITS = "job.split";
  static final String SPLIT_META = "job.splitmetainfo";
  /** Every file a description carries. */
  public static final java.util.List<String> FILES = java.util.List.of(JOB_XML, SPLITS, SPLIT_META);

  private boolean present;
  private byte[] jobXml = new byte[0];
  private byte[] splits = new byte[0];
  private byte[] splitMeta = new byte[0];

  /** None: what a session answers for a job it holds no description of (one staged as files). */
  public JobDescription() {
  }

  private JobDescription(byte[] jobXml, byte[] splits, byte[] splitMeta) {
    this.present = true;
    this.jobXml = jobXml;
    this.splits = splits;
    this.splitMeta = splitMeta;
  }

  /** The description of the job Hadoop's job client wrote into the local folder {@code submitDir}. */
  public static JobDescription read(File submitDir) throws IOException {
    return new JobDescription(Files.readAllBytes(new File(submitDir, JOB_XML).toPath()),
        Files.readAllBytes(new File(submitDir, SPLITS).toPath()),
        Files.readAllBytes(new File(submitDir, SPLIT_META).toPath()));
  }

  /** The bytes the description of the job in the local folder {@code submitDir} would carry, without reading them. */
  public static long sizeOf(File submitDir) {
    long size = 0;
    for (String name : FILES) {
      size += new File(submitDir, name).length();
    }
    return size;
  }

  /** Whether this describes a job (false for the answer about a job that was staged). */
  public boolean isPresent() {
    return present;
  }

  /** The bytes it carries, for a size in a log line. */
  public long size() {
    return (long) jobXml.length + splits.length + splitMeta.length;
  }

  /**
   * Writes the job's files into {@code dir} (made if missing, for its owner only: a job's
   * configuration may hold its secrets), as the job client had them.
   */
  public void writeTo(File dir) throws IOException {
    if (!present) {
      throw new IllegalStateException("no job is described");
    }
    Files.createDirectories(dir.toPath(),
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    Files.write(new File(dir, JOB_XML).toPath(), jobXml);
    Files.write(new File(dir, SPLITS).toPath(), splits);
    Files.write(new File(dir, SPLIT_META).toPath(), splitMeta);
  }

  @Override
  public void write(DataOutput out) throws IOException {
    out.writeBoolean(present);
    if (present) {
      writeBytes(out, jobXml);
      writeBytes(out, splits);
      writeBytes(out, splitMeta);
    }
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    present = in.readBoolean();
    if (present) {
      jobXml = readBytes(in);
      splits = readBytes(in);
      splitMeta = readBytes(in);
    } else {
      jobXml = splits = splitMeta = new byte[0];
    }
  }

  private static void writeBytes(DataOutput out, byte[] bytes) throws IOException {
    WritableUtils.writeVInt(out, bytes.length);
    out.write(bytes);
  }

  private static byte[] readBytes(DataInput in) throws IOException {
    byte[] bytes = new byte[WritableUtils.readVInt(in)];
    in.readFully(bytes);
    return bytes;
  }
}
