package io.vivace.shuffle.net;

import io.vivace.segment.Segment;
import io.vivace.segment.SegmentCodec;
import io.vivace.segment.SegmentReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.concurrent.CountDownLatch;

/**
 * A real map output segment whose serving stops half way: its first half of stored bytes is sent
 * and flushed, then {@link #halfSent} opens and the rest waits for {@link #resume} (or for the
 * serving thread's interrupt). Stands for an executor that stalls or dies while it answers.
 */
final class StallingSegment implements Segment {

  private final Segment segment;
  final CountDownLatch halfSent = new CountDownLatch(1);
  final CountDownLatch resume = new CountDownLatch(1);

  StallingSegment(Segment segment) {
    this.segment = segment;
  }

  @Override
  public void copyStoredBytesTo(OutputStream out) throws IOException {
    ByteArrayOutputStream stored = new ByteArrayOutputStream();
    segment.copyStoredBytesTo(stored);
    byte[] bytes = stored.toByteArray();
    int half = bytes.length / 2;
    out.write(bytes, 0, half);
    out.flush();
    halfSent.countDown();
    try {
      resume.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("serving interrupted half way");
    }
    out.write(bytes, half, bytes.length - half);
  }

  @Override
  public long length() {
    return segment.length();
  }

  @Override
  public boolean inMemory() {
    return segment.inMemory();
  }

  @Override
  public boolean streamed() {
    return segment.streamed();
  }

  @Override
  public SegmentCodec codec() {
    return segment.codec();
  }

  @Override
  public SegmentReader open() throws IOException {
    return segment.open();
  }

  @Override
  public void release() {
    segment.release();
  }
}
