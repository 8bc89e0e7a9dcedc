package io.vivace.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.examples.RandomTextWriter;
import org.apache.hadoop.examples.RandomWriter;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * randomwriter and randomtextwriter on the framework under test: their output is random, so the
 * checks are that they succeed and that what they wrote is plausible for the bytes requested.
 *
 * <p>Both size themselves as maps = totalbytes / bytespermap (given totalbytes, the cluster size
 * does not matter) and each map writes records until it has written at least bytespermap bytes of
 * key+value payload, overshooting by less than one record.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class RandomWritersConformanceTest {

  @Test
  void randomwriter(@TempDir Path tmp) throws Exception {
    String fut = Frameworks.underTest();
    long perMap = 1024 * 1024;
    int maps = 3;
    Path out = tmp.resolve("randomwriter");
    Runs.Result run = Runs.tool(fut, tmp.resolve("scratch"), new RandomWriter(),
        "-D", RandomWriter.BYTES_PER_MAP + "=" + perMap,
        "-D", RandomWriter.TOTAL_BYTES + "=" + maps * perMap,
        out.toString()).assertSucceeded();

    String what = "randomwriter on " + fut;
    int expectedMaps = Frameworks.expectedMaps(fut, maps);
    // RandomWriter defaults: keys of 10..999 bytes, values of 0..19999 bytes.
    checkOutput(what, out, expectedMaps, perMap, 1000 + 20000, BytesWritable.class.getName(),
        10, 999, 0, 19999, run.counters(), "org.apache.hadoop.examples.RandomWriter$Counters");
  }

  @Test
  void randomtextwriter(@TempDir Path tmp) throws Exception {
    String fut = Frameworks.underTest();
    long perMap = 512 * 1024;
    int maps = 2;
    Path out = tmp.resolve("randomtextwriter");
    Runs.Result run = Runs.tool(fut, tmp.resolve("scratch"), new RandomTextWriter(),
        "-D", RandomTextWriter.TOTAL_BYTES + "=" + maps * perMap,
        "-D", RandomTextWriter.BYTES_PER_MAP + "=" + perMap,
        out.toString()).assertSucceeded();

    String what = "randomtextwriter on " + fut;
    int expectedMaps = Frameworks.expectedMaps(fut, maps);
    // Keys of 5..9 words and values of 10..99 words; each word (2..20 characters in its list)
    // is followed by a space.
    checkOutput(what, out, expectedMaps, perMap, (9 + 99) * 21, Text.class.getName(),
        5 * 3, 9 * 21, 10 * 3, 99 * 21, run.counters(),
        "org.apache.hadoop.examples.RandomTextWriter$Counters");
    for (Path p : OutputDirs.partFiles(out)) {
      SeqFiles.forEach(p, (k, v) -> {
        int kw = k.toString().split(" ").length;
        int vw = v.toString().split(" ").length;
        assertTrue(kw >= 5 && kw <= 9, what + ": key with " + kw + " words: " + k);
        assertTrue(vw >= 10 && vw <= 99, what + ": value with " + vw + " words");
      });
    }
  }

  private static void checkOutput(String what, Path out, int expectedMaps, long perMap,
      long maxRecord, String keyClass, long minKey, long maxKey, long minValue, long maxValue,
      Counters counters, String userGroup) throws Exception {
    OutputDirs.assertCommitted(out, what);
    assertEquals(OutputDirs.expectedPartNames('m', expectedMaps), OutputDirs.partNames(out),
        what + ": one part file per map");
    long records = 0;
    long payload = 0;
    List<Path> parts = OutputDirs.partFiles(out);
    for (Path p : parts) {
      SeqFiles.Summary s = SeqFiles.summarize(p);
      String f = what + ", " + p.getFileName() + " " + s;
      assertEquals(keyClass, s.keyClass(), f);
      assertTrue(s.payloadBytes() >= perMap && s.payloadBytes() < perMap + maxRecord,
          f + ": payload should be in [" + perMap + ", " + (perMap + maxRecord) + ")");
      assertTrue(s.minKey() >= minKey && s.maxKey() <= maxKey, f + ": key sizes");
      assertTrue(s.minValue() >= minValue && s.maxValue() <= maxValue, f + ": value sizes");
      records += s.records();
      payload += s.payloadBytes();
    }
    assertEquals(expectedMaps, CounterChecks.value(counters, TaskCounter.MAP_INPUT_RECORDS),
        what + ": map input records (one per map)");
    assertEquals(records, CounterChecks.value(counters, TaskCounter.MAP_OUTPUT_RECORDS),
        what + ": map output records vs records in the files");
    Map<String, Long> user = CounterChecks.userCounters(counters);
    assertEquals(records, user.getOrDefault(userGroup + "::RECORDS_WRITTEN", -1L),
        what + ": RECORDS_WRITTEN counter vs records in the files; user counters " + user);
    assertEquals(payload, user.getOrDefault(userGroup + "::BYTES_WRITTEN", -1L),
        what + ": BYTES_WRITTEN counter vs key+value bytes in the files; user counters " + user);
  }
}
