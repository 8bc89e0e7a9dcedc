package io.vivace.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Random;
import java.util.function.Supplier;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableComparable;
import org.apache.hadoop.io.WritableComparator;
import org.junit.jupiter.api.Test;

/**
 * Each known prefix agrees with Hadoop's comparator for its type, and decides: keys that differ in
 * their first 8 bytes (for numbers: any two different numbers) have different prefixes, so the
 * sort and the merge rarely fall back to the comparator.
 */
class KeyPrefixTest {

  private static void assertPrefixOrders(Class<? extends WritableComparable<?>> type,
                                         Supplier<WritableComparable<?>> keys) throws IOException {
    @SuppressWarnings("unchecked")
    RawComparator<Object> comparator = (RawComparator<Object>) (RawComparator<?>) WritableComparator.get(type);
    KeyPrefix prefix = KeyPrefix.forComparator(comparator);
    int decided = 0;
    for (int i = 0; i < 5_000; i++) {
      byte[] a = serialise(keys.get());
      byte[] b = serialise(keys.get());
      int byComparator = Integer.signum(comparator.compare(a, 0, a.length, b, 0, b.length));
      int byPrefix = Integer.signum(Long.compareUnsigned(prefix.of(a, 0, a.length), prefix.of(b, 0, b.length)));
      if (byPrefix != 0) {
        assertEquals(byComparator, byPrefix, type.getSimpleName() + ": the prefix contradicts the comparator");
        decided++;
      }
    }
    assertTrue(decided > 4_900, type.getSimpleName() + ": the prefix decided only " + decided + " of 5000");
  }

  private static byte[] serialise(WritableComparable<?> key) throws IOException {
    DataOutputBuffer out = new DataOutputBuffer();
    key.write(out);
    return java.util.Arrays.copyOf(out.getData(), out.getLength());
  }

  @Test
  void intKeys() throws IOException {
    Random random = new Random(1);
    assertPrefixOrders(IntWritable.class, () -> new IntWritable(random.nextInt()));
  }

  @Test
  void longKeys() throws IOException {
    Random random = new Random(2);
    assertPrefixOrders(LongWritable.class, () -> new LongWritable(random.nextLong()));
  }

  @Test
  void textKeys() throws IOException {
    Random random = new Random(3);
    assertPrefixOrders(Text.class, () -> new Text(Long.toHexString(random.nextLong())));
  }

  @Test
  void bytesWritableKeys() throws IOException {
    Random random = new Random(4);
    assertPrefixOrders(BytesWritable.class, () -> {
      byte[] b = new byte[10];
      random.nextBytes(b);
      return new BytesWritable(b);
    });
  }
}
