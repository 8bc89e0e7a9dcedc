package io.vivace.submit;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.serializer.Deserializer;
import org.apache.hadoop.io.serializer.SerializationFactory;

/**
 * A job's input splits as the job client serialised them ({@code job.split}). Each map attempt
 * reads its own back with its own class loader, as a Hadoop task does, so a split of the job's own
 * class is an instance of the class its input format sees.
 */
public final class InputSplits {

  /** One split read back, and its serialised size (Hadoop's SPLIT_RAW_BYTES). */
  public record Split(Object split, long rawBytes) {
  }

  private final String jobId;
  private final byte[] content;
  private final int[] offsets;
  private final String[][] locations;

  InputSplits(String jobId, byte[] content, int[] offsets, String[][] locations) {
    this.jobId = jobId;
    this.content = content;
    this.offsets = offsets;
    this.locations = locations;
  }

  /** The hosts where split {@code index}'s data is, as the input format said (may be empty). */
  public String[] locations(int index) {
    return locations[index];
  }

  public int count() {
    return offsets.length;
  }

  /** Split {@code index}, its class found through {@code conf}'s class loader. */
  public Split read(int index, Configuration conf, SerializationFactory serialization) throws IOException {
    int offset = offsets[index];
    DataInputBuffer buffer = new DataInputBuffer();
    buffer.reset(content, offset, content.length - offset);
    String className = Text.readString(buffer);
    Class<?> cls;
    try {
      cls = conf.getClassByName(className);
    } catch (ClassNotFoundException e) {
      throw new IOException("Split class " + className + " of job " + jobId
          + " not found on the job's class path (its job jar, -libjars, the framework's)", e);
    }
    @SuppressWarnings("unchecked")
    Deserializer<Object> deserializer = (Deserializer<Object>) serialization.getDeserializer(cls);
    if (deserializer == null) {
      throw new IOException("No deserializer for split class " + className + "; check io.serializations");
    }
    deserializer.open(buffer);
    Object split = deserializer.deserialize(null);
    return new Split(split, buffer.getPosition() - offset);
  }
}
