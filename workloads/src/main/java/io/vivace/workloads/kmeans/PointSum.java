package io.vivace.workloads.kmeans;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.io.Writable;

/** How many points were assigned to a centroid and the sum of their coordinates. */
public class PointSum implements Writable {

  private long count;
  private double[] sum = new double[0];

  void set(long count, double[] sum) {
    this.count = count;
    this.sum = sum;
  }

  /** Adds {@code other} into this one (this one's arrays are its own). */
  void add(PointSum other) {
    if (sum.length != other.sum.length) {
      sum = new double[other.sum.length];
      count = 0;
    }
    count += other.count;
    for (int d = 0; d < sum.length; d++) {
      sum[d] += other.sum[d];
    }
  }

  /** This one set to the sum of {@code sums}; returned. */
  PointSum sumOf(Iterable<PointSum> sums) {
    count = 0;
    java.util.Arrays.fill(sum, 0);
    for (PointSum other : sums) {
      add(other);
    }
    return this;
  }

  long count() {
    return count;
  }

  double[] mean() {
    double[] mean = new double[sum.length];
    for (int d = 0; d < sum.length; d++) {
      mean[d] = sum[d] / count;
    }
    return mean;
  }

  @Override
  public void write(DataOutput out) throws IOException {
    out.writeLong(count);
    out.writeInt(sum.length);
    for (double value : sum) {
      out.writeDouble(value);
    }
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    count = in.readLong();
    int dims = in.readInt();
    if (sum.length != dims) {
      sum = new double[dims];
    }
    for (int d = 0; d < dims; d++) {
      sum[d] = in.readDouble();
    }
  }
}
