package io.vivace.task;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.io.serializer.Deserializer;
import org.apache.hadoop.io.serializer.SerializationFactory;
import org.apache.hadoop.io.serializer.Serializer;

/**
 * An attempt's serialisations ({@code io.serializations}), made from the attempt's own
 * configuration, as Hadoop's tasks make theirs. Built per attempt, never per job: a serialisation
 * from the job jar or {@code -libjars} (Avro's, say) must be the class its attempt's loader defines,
 * and the objects it deserialises (a split of {@code MultipleInputs}, which then names the mapper)
 * must come from that loader too, or one class gets two identities.
 */
public final class AttemptSerializations {

  private final SerializationFactory factory;

  public AttemptSerializations(Configuration conf) {
    this.factory = new SerializationFactory(conf);
  }

  /** Hadoop's factory over the same configuration, for code that takes one. */
  public SerializationFactory factory() {
    return factory;
  }

  /** The serializer of {@code type}; {@code role} says what it serialises ("map output key"). */
  public <T> Serializer<T> serializer(Class<T> type, String role) throws IOException {
    Serializer<T> serializer = factory.getSerializer(type);
    if (serializer == null) {
      throw notFound("serializer", type, role);
    }
    return serializer;
  }

  /** The deserializer of {@code type}; {@code role} says what it reads ("map output value"). */
  public <T> Deserializer<T> deserializer(Class<T> type, String role) throws IOException {
    Deserializer<T> deserializer = factory.getDeserializer(type);
    if (deserializer == null) {
      throw notFound("deserializer", type, role);
    }
    return deserializer;
  }

  private IOException notFound(String what, Class<?> type, String role) {
    return new IOException("Could not find a " + what + " for the " + role + " class '" + type.getName()
        + "': no serialization in '" + CommonConfigurationKeysPublic.IO_SERIALIZATIONS_KEY + "' ("
        + String.join(",", factory.getConf().getTrimmedStrings(CommonConfigurationKeysPublic.IO_SERIALIZATIONS_KEY))
        + ") accepts it. Please ensure that '" + CommonConfigurationKeysPublic.IO_SERIALIZATIONS_KEY
        + "' is properly configured, if you're using custom serialization.");
  }
}
