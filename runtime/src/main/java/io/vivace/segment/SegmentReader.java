package io.vivace.segment;

import java.io.Closeable;
import java.io.IOException;
import org.apache.hadoop.io.DataInputBuffer;

/** Reads the records of a segment in order; key and value are views valid until the next call. */
public interface SegmentReader extends Closeable {

  boolean next() throws IOException;

  DataInputBuffer key();

  DataInputBuffer value();

  @Override
  void close() throws IOException;
}
