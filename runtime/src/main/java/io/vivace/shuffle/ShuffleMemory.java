package io.vivace.shuffle;

/**
 * The heap budget for map outputs kept in memory until their reducers consume them. Shared by all
 * jobs of an engine; a map output that does not fit goes to local disk instead.
 */
public final class ShuffleMemory {

  private final long capacity;
  private long used;

  public ShuffleMemory(long capacity) {
    this.capacity = capacity;
  }

  public synchronized boolean tryReserve(long bytes) {
    if (used + bytes > capacity) {
      return false;
    }
    used += bytes;
    return true;
  }

  public synchronized void release(long bytes) {
    used -= bytes;
  }

  public synchronized long used() {
    return used;
  }
}
