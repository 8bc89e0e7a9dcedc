package io.vivace.sort;

/**
 * The sort buffer arrays of one worker thread, kept between tasks: touching fresh memory is
 * expensive, so a warm worker reuses what earlier tasks grew.
 */
final class SortBuffers {

  private static final ThreadLocal<SortBuffers> OF_THREAD = ThreadLocal.withInitial(SortBuffers::new);

  byte[] data = new byte[64 * 1024];
  int[] meta = new int[4 * 1024];
  int[] order = new int[0];
  int[] scratchOrder = new int[0];
  long[] keys = new long[0];
  long[] scratchKeys = new long[0];
  /** Its 64 KB block is per worker, not per task: 5,000 one-record maps would allocate 320 MB. */
  final SortedGather gather = new SortedGather();

  static SortBuffers ofCurrentThread() {
    return OF_THREAD.get();
  }
}
