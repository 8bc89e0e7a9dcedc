package io.vivace.merge;

import io.vivace.segment.Segment;
import io.vivace.segment.SegmentReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.util.Progress;

/**
 * A k-way merge of sorted segments through a tournament (loser) tree: each record costs
 * log2(k) comparisons. When the comparator's order is known ({@link KeyPrefix}), each segment's
 * current key is also kept as a 64-bit prefix, and keys are compared as longs; the comparator
 * runs only when the prefixes are equal. Records with equal keys come out in segment order, so
 * the result is deterministic. {@link #inBackground} runs a merge on a thread of its own.
 */
public final class MergingIterator implements RawKeyValueIterator, java.io.Closeable {

  private final RawComparator<Object> comparator;
  private final KeyPrefix prefix;
  private final List<Segment> ownedSegments;
  private final List<SegmentReader> allReaders = new ArrayList<>();
  private final SegmentReader[] readers;
  /** Each segment's current key prefix (0 when the order has no prefix). */
  private final long[] prefixes;
  /** Whether each segment has a current record. */
  private final boolean[] live;
  /**
   * The tree over k leaves (segments): {@code tree[1..k-1]} hold the loser of the match at that
   * node, {@code tree[0]} the overall winner; leaf i sits at node i + k, node n's parent is n / 2.
   */
  private final int[] tree;
  private boolean started;
  private final Progress progress = new Progress();
  /** Set when this iterator reads another one's records from its own merge thread. */
  private final BackgroundMerge background;

  /**
   * @param ownedSegments segments this iterator releases when closed (intermediate merge results)
   */
  @SuppressWarnings("unchecked")
  public MergingIterator(List<? extends Segment> segments, RawComparator<?> comparator,
                         List<Segment> ownedSegments) throws IOException {
    this.comparator = (RawComparator<Object>) comparator;
    this.prefix = KeyPrefix.forComparator(comparator);
    this.ownedSegments = ownedSegments;
    int k = segments.size();
    this.readers = new SegmentReader[k];
    this.prefixes = new long[k];
    this.live = new boolean[k];
    this.tree = new int[Math.max(1, k)];
    this.background = null;
    try {
      for (int i = 0; i < k; i++) {
        readers[i] = segments.get(i).open();
        allReaders.add(readers[i]);
      }
    } catch (IOException e) {
      close();
      throw e;
    }
  }

  private MergingIterator(BackgroundMerge background) {
    this.comparator = null;
    this.prefix = null;
    this.ownedSegments = new ArrayList<>();
    this.readers = new SegmentReader[0];
    this.prefixes = new long[0];
    this.live = new boolean[0];
    this.tree = new int[1];
    this.background = background;
  }

  /**
   * The records of {@code merge}, merged on a new thread named {@code threadName} while the caller
   * consumes them (see {@link BackgroundMerge}); closing the result closes {@code merge}.
   */
  public static MergingIterator inBackground(MergingIterator merge, String threadName) {
    return new MergingIterator(new BackgroundMerge(merge, threadName));
  }

  @Override
  public boolean next() throws IOException {
    if (background != null) {
      return background.next();
    }
    int k = readers.length;
    if (k == 0) {
      return false;
    }
    if (!started) {
      started = true;
      for (int i = 0; i < k; i++) {
        advance(i);
      }
      tree[0] = build(1);
      return live[tree[0]];
    }
    int w = tree[0];
    if (!live[w]) {
      return false;
    }
    advance(w);
    for (int node = (w + k) >>> 1; node >= 1; node >>>= 1) {
      int opponent = tree[node];
      if (beats(opponent, w)) {
        tree[node] = w;
        w = opponent;
      }
    }
    tree[0] = w;
    return live[w];
  }

  /** Plays the matches below {@code node}; returns the subtree's winner, storing losers. */
  private int build(int node) {
    int k = readers.length;
    if (node >= k) {
      return node - k;
    }
    int left = build(2 * node);
    int right = build(2 * node + 1);
    if (beats(left, right)) {
      tree[node] = right;
      return left;
    }
    tree[node] = left;
    return right;
  }

  /** Moves segment {@code i} to its next record. */
  private void advance(int i) throws IOException {
    SegmentReader reader = readers[i];
    live[i] = reader.next();
    if (live[i] && prefix != null) {
      DataInputBuffer key = reader.key();
      prefixes[i] = prefix.of(key.getData(), key.getPosition(), key.getLength() - key.getPosition());
    }
  }

  /** Whether segment a's current record comes before segment b's; exhausted segments come last. */
  private boolean beats(int a, int b) {
    if (!live[a] || !live[b]) {
      return live[a];
    }
    int c = Long.compareUnsigned(prefixes[a], prefixes[b]);
    if (c == 0) {
      DataInputBuffer ka = readers[a].key();
      DataInputBuffer kb = readers[b].key();
      c = comparator.compare(ka.getData(), ka.getPosition(), ka.getLength() - ka.getPosition(),
          kb.getData(), kb.getPosition(), kb.getLength() - kb.getPosition());
    }
    return c < 0 || (c == 0 && a < b);
  }

  @Override
  public DataInputBuffer getKey() {
    return background != null ? background.key() : readers[tree[0]].key();
  }

  @Override
  public DataInputBuffer getValue() {
    return background != null ? background.value() : readers[tree[0]].value();
  }

  @Override
  public Progress getProgress() {
    return progress;
  }

  @Override
  public void close() throws IOException {
    if (background != null) {
      background.close();
      return;
    }
    IOException first = null;
    for (SegmentReader reader : allReaders) {
      try {
        reader.close();
      } catch (IOException e) {
        if (first == null) {
          first = e;
        }
      }
    }
    allReaders.clear();
    for (Segment s : ownedSegments) {
      s.release();
    }
    ownedSegments.clear();
    if (first != null) {
      throw first;
    }
  }
}
