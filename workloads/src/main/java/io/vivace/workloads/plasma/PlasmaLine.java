package io.vivace.workloads.plasma;

import java.util.SplittableRandom;
import org.apache.hadoop.io.Text;

/**
 * Plasma's sort record: a 100-byte line of an 8-byte key, TAB, 90 random printable bytes and LF.
 * The key is one of {@value #KEYS} values, written as 8 upper-case hex digits of {@code value *
 * 65537}: spread evenly over the 32-bit range, so a partition is a fixed slice of it, and in the
 * same order as the bytes, so Text's byte order sorts keys numerically.
 */
public final class PlasmaLine {

  public static final int BYTES = 100;
  /** The line without its LF, as a line reader returns it. */
  public static final int TEXT_BYTES = BYTES - 1;
  public static final int KEY_BYTES = 8;
  public static final int KEYS = 65_536;
  static final int PAYLOAD_BYTES = TEXT_BYTES - KEY_BYTES - 1;
  private static final byte FIRST_PRINTABLE = '!';
  private static final int PRINTABLES = '~' - '!' + 1;
  private static final byte[] HEX = "0123456789ABCDEF".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

  private PlasmaLine() {}

  /** Fills {@code line} (at least {@link #TEXT_BYTES} long) with the next random line, no LF. */
  static void fill(SplittableRandom random, byte[] line) {
    long key = (long) random.nextInt(KEYS) * 65_537L;
    for (int i = KEY_BYTES - 1; i >= 0; i--) {
      line[i] = HEX[(int) (key & 0xF)];
      key >>>= 4;
    }
    line[KEY_BYTES] = '\t';
    for (int i = KEY_BYTES + 1; i < TEXT_BYTES; i++) {
      line[i] = (byte) (FIRST_PRINTABLE + random.nextInt(PRINTABLES));
    }
  }

  /** The key's 32-bit value, or -1 when the first 8 bytes are not upper-case hex digits. */
  static long keyValue(byte[] bytes) {
    long value = 0;
    for (int i = 0; i < KEY_BYTES; i++) {
      int b = bytes[i];
      int digit = b >= '0' && b <= '9' ? b - '0' : b >= 'A' && b <= 'F' ? b - 'A' + 10 : -1;
      if (digit < 0) {
        return -1;
      }
      value = value << 4 | digit;
    }
    return value;
  }

  /** Null when {@code line} (without LF) is a well-formed record, else what is wrong with it. */
  static String problem(Text line) {
    if (line.getLength() != TEXT_BYTES) {
      return line.getLength() + " bytes, expected " + TEXT_BYTES + " before the LF";
    }
    byte[] bytes = line.getBytes();
    if (keyValue(bytes) < 0) {
      return "the key is not 8 upper-case hex digits";
    }
    if (bytes[KEY_BYTES] != '\t') {
      return "no TAB after the 8-byte key";
    }
    return null;
  }
}
