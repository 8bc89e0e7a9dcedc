package io.vivace.workloads.gen;

/**
 * The rows {@code [first, first + count)} that split {@code index} of {@code splits} generates out
 * of {@code total}: as even as whole rows allow, the first {@code total % splits} splits one more.
 */
public record RowRange(long first, long count) {

  public static RowRange of(long total, int splits, int index) {
    long base = total / splits;
    long extra = total % splits;
    long first = index * base + Math.min(index, extra);
    return new RowRange(first, base + (index < extra ? 1 : 0));
  }
}
