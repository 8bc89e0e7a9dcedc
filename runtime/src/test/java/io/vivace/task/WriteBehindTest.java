package io.vivace.task;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.counters.FileSystemBytes;
import io.vivace.localdisk.LocalFileStatistics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapred.TaskAttemptID;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reduce's write-behind against writing on the task's thread, through Hadoop's own
 * TextOutputFormat into the local file system: the same file byte for byte (reused key and value
 * objects, a record of another class half way), the same bytes counted and the same local file
 * I/O on the task's thread; a failing write fails a later call; output formats, file systems and
 * classes it cannot copy exactly are left to the task's thread.
 */
class WriteBehindTest {

  private static final String TEXT_OUTPUT = TextOutputFormat.class.getName();

  @TempDir
  Path dir;

  private static final class Written {
    byte[] file;
    long bytesCounted;
    long[] io;
  }

  /** Writes {@code records} through TextOutputFormat, reusing one key and value object per class. */
  private Written write(String name, List<Writable[]> records, boolean behind) throws Exception {
    Configuration conf = new Configuration();
    org.apache.hadoop.fs.Path out = new org.apache.hadoop.fs.Path(dir.resolve(name).toUri());
    conf.set(FileOutputFormat.OUTDIR, out.toString());
    TaskAttemptContext context = new TaskAttemptContextImpl(conf,
        TaskAttemptID.forName("attempt_1_0001_r_000000_0"));
    long[] ioBefore = LocalFileStatistics.ofThisThread();
    FileSystemBytes meter = FileSystemBytes.of(out, conf);
    long bytesBefore = meter.written();
    RecordWriter<Writable, Writable> real = new TextOutputFormat<Writable, Writable>().getRecordWriter(context);
    WriteBehind<Writable, Writable> writeBehind = behind
        ? WriteBehind.of(real, TEXT_OUTPUT, Text.class, IntWritable.class, out, conf, "test-output")
        : null;
    Written result = new Written();
    long counted = 0;
    Text key = new Text();
    IntWritable value = new IntWritable();
    LongWritable longValue = new LongWritable();
    for (Writable[] r : records) {
      key.set((Text) r[0]);
      Writable v = r[1] instanceof IntWritable i ? set(value, i) : set(longValue, (LongWritable) r[1]);
      if (writeBehind == null || !writeBehind.accept(key, v)) {
        long before = meter.written();
        real.write(key, v);
        counted += meter.written() - before;
      }
    }
    if (writeBehind != null) {
      counted += writeBehind.finish();
    }
    real.close(context);
    result.bytesCounted = counted;
    result.io = LocalFileStatistics.ofThisThread();
    for (int i = 0; i < result.io.length; i++) {
      result.io[i] -= ioBefore[i];
    }
    assertTrue(meter.written() - bytesBefore >= counted);
    try (var files = Files.walk(dir.resolve(name))) {
      Path part = files.filter(p -> p.getFileName().toString().startsWith("part-")).findFirst().orElseThrow();
      result.file = Files.readAllBytes(part);
    }
    return result;
  }

  private static Writable set(IntWritable reuse, IntWritable from) {
    reuse.set(from.get());
    return reuse;
  }

  private static Writable set(LongWritable reuse, LongWritable from) {
    reuse.set(from.get());
    return reuse;
  }

  private static List<Writable[]> records(int count, int switchAt) {
    List<Writable[]> records = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Writable value = i < switchAt ? new IntWritable(i * 7) : new LongWritable(i * 11L);
      records.add(new Writable[] {new Text("key-" + i + "-" + "x".repeat(i % 50)), value});
    }
    return records;
  }

  private void assertSameAsOnTheTasksThread(List<Writable[]> records) throws Exception {
    Written direct = write("direct", records, false);
    Written behind = write("behind", records, true);
    assertTrue(direct.file.length > 100_000, "the records were written: " + direct.file.length);
    assertArrayEquals(direct.file, behind.file);
    assertEquals(direct.bytesCounted, behind.bytesCounted);
    assertArrayEquals(direct.io, behind.io);
  }

  @Test
  void theThreadWritesTheSameFileAndCountsTheSameBytesAndIo() throws Exception {
    assertSameAsOnTheTasksThread(records(20_000, Integer.MAX_VALUE));
  }

  @Test
  void aRecordOfAnotherClassEndsTheThreadAndTheRestIsWrittenInOrder() throws Exception {
    assertSameAsOnTheTasksThread(records(20_000, 12_345));
  }

  @Test
  void aWriteFailingOnTheThreadFailsALaterCall() throws Exception {
    Configuration conf = new Configuration();
    org.apache.hadoop.fs.Path out = new org.apache.hadoop.fs.Path(dir.toUri());
    List<String> written = new ArrayList<>();
    RecordWriter<Text, IntWritable> failing = new RecordWriter<>() {
      @Override
      public void write(Text key, IntWritable value) throws IOException {
        if (written.size() == 3000) {
          throw new IOException("disk full at " + key);
        }
        written.add(key.toString());
      }

      @Override
      public void close(TaskAttemptContext context) {
      }
    };
    WriteBehind<Text, IntWritable> behind =
        WriteBehind.of(failing, TEXT_OUTPUT, Text.class, IntWritable.class, out, conf, "test-output");
    assertNotNull(behind);
    IOException e = assertThrows(IOException.class, () -> {
      for (int i = 0; i < 1_000_000; i++) {
        behind.accept(new Text("k" + i), new IntWritable(i));
      }
      behind.finish();
    });
    assertEquals("disk full at k3000", e.getMessage());
    assertEquals(3000, written.size());
    assertEquals("k2999", written.get(2999));
  }

  @Test
  void onlyHadoopsFileOutputFormatsOnTheLocalFileSystemAndExactlyCopiedClasses() {
    Configuration conf = new Configuration();
    org.apache.hadoop.fs.Path local = new org.apache.hadoop.fs.Path(dir.toUri());
    RecordWriter<Object, Object> any = new RecordWriter<>() {
      @Override
      public void write(Object key, Object value) {
      }

      @Override
      public void close(TaskAttemptContext context) {
      }
    };
    assertNull(WriteBehind.of(any, "com.example.MyOutputFormat", Text.class, Text.class, local, conf, "t"));
    assertNull(WriteBehind.of(any, TEXT_OUTPUT, Text.class, org.apache.hadoop.io.DoubleWritable.class,
        local, conf, "t"));
    assertNull(WriteBehind.of(any, TEXT_OUTPUT, Text.class, Text.class,
        new org.apache.hadoop.fs.Path("viewfs://cluster/out"), conf, "t"));
    WriteBehind<Object, Object> ok = WriteBehind.of(any, TEXT_OUTPUT, Text.class, Text.class, local, conf, "t");
    assertNotNull(ok);
    ok.abandon();
  }
}
