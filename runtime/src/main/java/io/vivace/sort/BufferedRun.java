package io.vivace.sort;

/**
 * Sorted records that stay in one byte array while they are read, so that a reader can take keys
 * and values in place, in any order, without copying them: positions {@link #from()} to {@link
 * #to()} (exclusive) of the run.
 */
public interface BufferedRun extends KnownEqualKeys {

  int from();

  int to();

  /** The array holding every record's bytes. */
  byte[] data();

  int keyStart(int position);

  /** The key's end, which is also where the value starts. */
  int keyEnd(int position);

  int valueEnd(int position);

  /** Whether the key at {@code position} is byte for byte the key at {@code position - 1}. */
  boolean keyRepeats(int position);
}
