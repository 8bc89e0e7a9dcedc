package io.vivace.driver;

/** How far the bytes a generator wrote may be from the bytes asked for. */
public final class GeneratedSize {

  /** Upper slack per map for RandomWriter and RandomTextWriter: see {@link #ofRandomWriter}. */
  static final long SLACK_PER_MAP = 64 * 1024;
  static final int SLACK_PERCENT = 2;

  private GeneratedSize() {}

  /** TeraGen (100 bytes a row) and TestDFSIO write exactly what they are asked for. */
  public static String exact(long requested, long actual) {
    return actual == requested ? null
        : actual + " bytes on the file system, expected exactly " + requested;
  }

  /**
   * RandomWriter and RandomTextWriter: each map writes records until their payload (key and value
   * bytes) reaches its bytes-per-map, which the driver sets to {@code ceil(requested / maps)}, so
   * the files hold at least {@code requested} bytes. Above it: each map's last record overshoots by
   * less than one record (RandomWriter's largest is 21,000 bytes, RandomTextWriter's ~2 KB), each
   * file has a header, and the framing of every record costs ~0.35% on average (SequenceFile:
   * record and key lengths, BytesWritable sizes and a sync marker about every 2,000 bytes, for
   * records of ~10.5 KB; text: a tab and a newline for records of ~580 bytes). Hence at most
   * {@value #SLACK_PERCENT}% plus {@value #SLACK_PER_MAP} bytes per map more. Apache's local runner
   * forcing one map writes {@code requested / maps} and fails the lower bound.
   */
  public static String ofRandomWriter(long requested, int maps, long actual) {
    long most = requested + requested * SLACK_PERCENT / 100 + maps * SLACK_PER_MAP;
    if (actual >= requested && actual <= most) {
      return null;
    }
    return actual + " bytes on the file system, expected " + requested + " to " + most
        + " (the payload asked for, plus record framing and each map's last record)";
  }
}
