package io.vivace.plan;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.serializer.Deserializer;
import org.apache.hadoop.io.serializer.SerializationFactory;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.split.JobSplit;
import org.apache.hadoop.mapreduce.split.SplitMetaInfoReader;

/**
 * Reads the input splits the job client wrote at submission ({@code job.split} and its meta info)
 * back into split objects, all at once: the number of maps is the number of splits.
 */
public final class SplitReader {

  private SplitReader() {
  }

  /** The job's splits (new- or old-API objects, as the InputFormat made them). */
  public static InputSplits read(JobID jobId, Configuration conf, Path submitDir) throws IOException {
    FileSystem fs = submitDir.getFileSystem(conf);
    JobSplit.TaskSplitMetaInfo[] meta = SplitMetaInfoReader.readSplitMetaInfo(jobId, fs, conf, submitDir);
    Object[] splits = new Object[meta.length];
    long[] sizes = new long[meta.length];
    if (meta.length == 0) {
      return new InputSplits(splits, sizes);
    }
    Path splitFile = new Path(meta[0].getSplitLocation());
    byte[] content;
    try (FSDataInputStream in = splitFile.getFileSystem(conf).open(splitFile)) {
      long length = splitFile.getFileSystem(conf).getFileStatus(splitFile).getLen();
      content = new byte[(int) length];
      IOUtils.readFully(in, content, 0, content.length);
    }
    SerializationFactory serialization = new SerializationFactory(conf);
    DataInputBuffer buffer = new DataInputBuffer();
    for (int i = 0; i < meta.length; i++) {
      int offset = (int) meta[i].getStartOffset();
      buffer.reset(content, offset, content.length - offset);
      String className = Text.readString(buffer);
      Class<?> cls;
      try {
        cls = conf.getClassByName(className);
      } catch (ClassNotFoundException e) {
        throw new IOException("Split class " + className + " not found", e);
      }
      @SuppressWarnings("unchecked")
      Deserializer<Object> deserializer = (Deserializer<Object>) serialization.getDeserializer(cls);
      if (deserializer == null) {
        throw new IOException("No deserializer for split class " + className
            + "; check io.serializations");
      }
      deserializer.open(buffer);
      splits[i] = deserializer.deserialize(null);
      sizes[i] = buffer.getPosition() - offset;
    }
    return new InputSplits(splits, sizes);
  }
}
