package io.vivace.merge;

import io.vivace.localdisk.ScratchDir;
import io.vivace.segment.FileSegment;
import io.vivace.segment.PartitionedFileWriter;
import io.vivace.segment.Segment;
import io.vivace.segment.SegmentCompressor;
import io.vivace.segment.SegmentWriter;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.apache.hadoop.io.RawComparator;

/** Merges sorted segments into one segment of a new local file: an intermediate merge's output. */
public final class IntermediateFile {

  /** Records between two looks at whether the merge was called off. */
  private static final int CANCEL_CHECK_RECORDS = 4096;

  /** The merged segment and the records written into it. */
  public record Written(Segment segment, long records) {
  }

  private IntermediateFile() {
  }

  /**
   * Writes the merge of {@code batch} into a new file {@code name} of {@code dir} (compressed when
   * {@code compressor} is not null); the inputs stay as they are. A failure, or {@code cancelled}
   * turning true, deletes the file.
   */
  public static Written write(List<Segment> batch, RawComparator<?> comparator, SegmentCompressor compressor,
                       ScratchDir dir, String name, BooleanSupplier cancelled) throws IOException {
    long inputBytes = 0;
    for (Segment s : batch) {
      inputBytes += s.length();
    }
    PartitionedFileWriter out = new PartitionedFileWriter(dir, name, inputBytes, 1, compressor);
    try (MergingIterator in = new MergingIterator(batch, comparator, new ArrayList<>())) {
      SegmentWriter writer = out.startPartition(0);
      long n = 0;
      while (in.next()) {
        writer.append(in.getKey(), in.getValue());
        if (++n % CANCEL_CHECK_RECORDS == 0 && cancelled.getAsBoolean()) {
          throw new InterruptedIOException("merge into " + out.file() + " called off");
        }
      }
      long records = out.records();
      FileSegment[] result = out.finish();
      return new Written(result[0], records);
    } catch (IOException | RuntimeException | Error e) {
      out.discard();
      throw e;
    }
  }
}
