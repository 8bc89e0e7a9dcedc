package io.vivace.merge;

import io.vivace.shuffle.Segment;
import io.vivace.shuffle.SegmentReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.util.Progress;

/**
 * A k-way merge of sorted segments through a binary heap keyed on the raw key bytes. Records with
 * equal keys come out in segment order, so the result is deterministic.
 */
public final class MergingIterator implements RawKeyValueIterator, java.io.Closeable {

  private final RawComparator<?> comparator;
  private final List<Segment> ownedSegments;
  private final List<SegmentReader> allReaders = new ArrayList<>();
  private final SegmentReader[] heap;
  private final int[] order;
  private int size;
  private boolean started;
  private final Progress progress = new Progress();

  /**
   * @param ownedSegments segments this iterator releases when closed (intermediate merge results)
   */
  public MergingIterator(List<? extends Segment> segments, RawComparator<?> comparator,
                         List<Segment> ownedSegments) throws IOException {
    this.comparator = comparator;
    this.ownedSegments = ownedSegments;
    this.heap = new SegmentReader[segments.size()];
    this.order = new int[segments.size()];
    try {
      for (Segment segment : segments) {
        allReaders.add(segment.open());
      }
    } catch (IOException e) {
      close();
      throw e;
    }
  }

  @Override
  public boolean next() throws IOException {
    if (!started) {
      started = true;
      for (int i = 0; i < allReaders.size(); i++) {
        SegmentReader reader = allReaders.get(i);
        if (reader.next()) {
          heap[size] = reader;
          order[size] = i;
          size++;
        }
      }
      for (int i = size / 2 - 1; i >= 0; i--) {
        siftDown(i);
      }
      return size > 0;
    }
    if (size == 0) {
      return false;
    }
    if (!heap[0].next()) {
      size--;
      heap[0] = heap[size];
      order[0] = order[size];
      heap[size] = null;
      if (size == 0) {
        return false;
      }
    }
    siftDown(0);
    return true;
  }

  private boolean less(int a, int b) {
    DataInputBuffer ka = heap[a].key();
    DataInputBuffer kb = heap[b].key();
    @SuppressWarnings({"unchecked", "rawtypes"})
    int c = ((RawComparator) comparator).compare(ka.getData(), ka.getPosition(),
        ka.getLength() - ka.getPosition(), kb.getData(), kb.getPosition(),
        kb.getLength() - kb.getPosition());
    return c < 0 || (c == 0 && order[a] < order[b]);
  }

  private void siftDown(int i) {
    while (true) {
      int left = 2 * i + 1;
      if (left >= size) {
        return;
      }
      int smallest = left;
      int right = left + 1;
      if (right < size && less(right, left)) {
        smallest = right;
      }
      if (!less(smallest, i)) {
        return;
      }
      SegmentReader r = heap[i];
      heap[i] = heap[smallest];
      heap[smallest] = r;
      int o = order[i];
      order[i] = order[smallest];
      order[smallest] = o;
      i = smallest;
    }
  }

  @Override
  public DataInputBuffer getKey() {
    return heap[0].key();
  }

  @Override
  public DataInputBuffer getValue() {
    return heap[0].value();
  }

  @Override
  public Progress getProgress() {
    return progress;
  }

  @Override
  public void close() throws IOException {
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
