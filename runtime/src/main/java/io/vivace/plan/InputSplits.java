package io.vivace.plan;

/** A job's input splits and the serialised size of each (Hadoop's SPLIT_RAW_BYTES). */
public record InputSplits(Object[] splits, long[] rawBytes) {

  public int count() {
    return splits.length;
  }
}
