package io.vivace.workloads.swim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Each synthesis rule against values computed by hand from real FB-2010 lines (the file in
 * {@link SwimTraces}); the computations are in the comments.
 */
class JobSynthesisTest {

  /** STAC's scale: 17 machines replaying the 3000-machine trace. */
  private static final Scale STAC = Scale.nodes(17, 3000);
  /** 64 MiB blocks: (67108864 - 4096) / 117 = 573545 records, 57354500 usable bytes. */
  private static final PoolLayout POOL_64M = new PoolLayout(100, 64L << 20);

  private static List<TraceJob> trace;

  @BeforeAll
  static void readTrace() throws IOException {
    trace = TraceReader.read(SwimTraces.fb2010());
  }

  @Test
  void readsEveryLineOfTheTrace() {
    assertEquals(24442, trace.size());
    // job2	20	2	53088744165	1510005522	5759777
    assertEquals(new TraceJob(3, "job2", 20, 2, 53088744165L, 1510005522L, 5759777L), trace.get(2));
  }

  @Test
  void poolLayout() {
    assertEquals(573545, POOL_64M.recordsPerPartition());
    assertEquals(57354500, POOL_64M.usableBytes());
  }

  @Test
  void integerScaleTruncatesLikeSwim() {
    // job2 input: 53088744165 * 17 = 902508650805; / 3000 = 300836216.9 -> 300836216
    assertEquals(300836216L, STAC.apply(trace.get(2).inputBytes()));
    // job2 shuffle: 1510005522 * 17 = 25670093874; / 3000 = 8556697.9 -> 8556697
    assertEquals(8556697L, STAC.apply(trace.get(2).shuffleBytes()));
    // job2 output: 5759777 * 17 = 97916209; / 3000 = 32638.7 -> 32638
    assertEquals(32638L, STAC.apply(trace.get(2).outputBytes()));
  }

  @Test
  void realScaleTruncatesToWholeBytes() {
    // job18 input: 247378729350 * 1e-5 = 2473787.2935 -> 2473787
    assertEquals(2473787L, Scale.factor(1e-5).apply(trace.get(18).inputBytes()));
    assertThrows(IllegalArgumentException.class, () -> Scale.factor(0));
  }

  @Test
  void clampsInputToOnePartitionAndShuffleAndOutputTo1KiB() {
    TraceJob job0 = trace.get(0); // job0	9	9	1762	0	14347
    // input 1762 * 17 / 3000 = 9 bytes -> one partition's 57354500 usable bytes
    assertEquals(57354500L, JobSynthesis.input(job0.inputBytes(), STAC, POOL_64M));
    // shuffle 0 -> 1024
    assertEquals(1024L, JobSynthesis.shuffleOrOutput(job0.shuffleBytes(), STAC));
    // output 14347 * 17 / 3000 = 81 -> 1024
    assertEquals(1024L, JobSynthesis.shuffleOrOutput(job0.outputBytes(), STAC));
    // job2's scaled input (300836216) is above the clamp and stays
    assertEquals(300836216L, JobSynthesis.input(trace.get(2).inputBytes(), STAC, POOL_64M));
  }

  @Test
  void partitionsRoundUp() {
    // job2: 300836216 / 57354500 = 5.25 -> 6 partitions (5 hold 286772500, 6 hold 344127000)
    assertEquals(6, JobSynthesis.partitions(300836216L, POOL_64M));
    assertEquals(1, JobSynthesis.partitions(57354500L, POOL_64M));
    assertEquals(2, JobSynthesis.partitions(57354501L, POOL_64M));
  }

  @Test
  void reducersByBytesPerReduceWithSwimsClusterCap() {
    // job2: shuffle + output = 8556697 + 32638 = 8589335 bytes
    //   per 64 MiB: 0.128 -> rounds to 0 -> at least 1
    assertEquals(1, JobSynthesis.reducers(8556697, 32638, 64L << 20, 17));
    //   per 1 MiB: 8589335 / 1048576 = 8.19 -> 8 (not above the 17 machines)
    assertEquals(8, JobSynthesis.reducers(8556697, 32638, 1L << 20, 17));
    // job21: 199332552722 * 17 / 3000 = 1129551132 shuffle, 22658748953 * 17 / 3000 = 128399577
    //   output; 1257950709 / 67108864 = 18.7 -> 19 > 17 machines -> 17 / 5 = 3
    TraceJob job21 = trace.get(21);
    assertEquals(1129551132L, STAC.apply(job21.shuffleBytes()));
    assertEquals(128399577L, STAC.apply(job21.outputBytes()));
    assertEquals(3, JobSynthesis.reducers(1129551132L, 128399577L, 64L << 20, 17));
    //   on one machine the cap, 1 / 5 = 0 in SWIM, stays at 1
    assertEquals(1, JobSynthesis.reducers(1129551132L, 128399577L, 64L << 20, 1));
  }

  @Test
  void recordRatios() {
    // job2 reads 6 partitions of 573545 records = 3441270 records; its shuffle is
    // 8556697 / 100 = 85566.97 records: 85566.97 / 3441270 = 0.0248649394 map records per input
    assertEquals(0.024864939397, JobSynthesis.mapRecordsPerInputRecord(8556697, 6, POOL_64M), 1e-11);
    // output over shuffle: 32638 / 8556697 = 0.0038143223 records per value
    assertEquals(0.003814322279, JobSynthesis.reduceRecordsPerValue(8556697, 32638), 1e-11);
  }

  @Test
  void bernoulliDrawForTheFraction() {
    // 2.3 records per input: 2, plus 1 when the uniform draw is below 0.3
    assertEquals(3, JobSynthesis.draw(2.3, 0.29));
    assertEquals(2, JobSynthesis.draw(2.3, 0.31));
    assertEquals(0, JobSynthesis.draw(0.0248, 0.5));
  }

  @Test
  void gapsUnscaledOrCompressed() {
    // jobs 10..15 submit at 74, 75, 75, 75, 75, 76: from job 10, job 15 is 1+0+0+0+1 = 2 s later
    List<SynthesisedJob> jobs = ReplayPlan.synthesise(trace.subList(10, 16), 10,
        settings(STAC, 1, 4));
    assertEquals(List.of(0L, 1000L, 1000L, 1000L, 1000L, 2000L),
        jobs.stream().map(SynthesisedJob::dueOffsetMs).toList());
    // compressed 4x: 2 s -> 500 ms
    assertEquals(500L, ReplayPlan.synthesise(trace.subList(10, 16), 10, settings(STAC, 4, 4))
        .get(5).dueOffsetMs());
  }

  @Test
  void selectionByCountAndWindow() {
    assertEquals(20, ReplayPlan.select(trace, 0, 20, 0).size());
    // the first 20 minutes of trace time: job0 (at 9 s, gap 9) starts the window at 0 s;
    // job301 submits at 1199 s, job302 at 1200 s: STAC's 302 jobs
    List<TraceJob> window = ReplayPlan.select(trace, 0, 0, 1200);
    assertEquals(302, window.size());
    assertEquals("job301", window.get(301).name());
    // from job 10 (74 s, gap 18: the window starts at 56 s): 20 s end before job 15 (76 s = 56 +
    // 20), 21 s take it but not job 16 (83 s)
    assertEquals(5, ReplayPlan.select(trace, 10, 0, 20).size());
    assertEquals("job15", ReplayPlan.select(trace, 10, 0, 21).get(5).name());
    assertEquals(6, ReplayPlan.select(trace, 10, 0, 21).size());
  }

  @Test
  void aSampleKeepsEveryKthTraceJobAtItsTraceTime() {
    // jobs 3..15; multiples of 5: job5 (32 s), job10 (74 s), job15 (76 s)
    List<SynthesisedJob> all = ReplayPlan.synthesise(trace.subList(3, 16), 3, settings(STAC, 1, 100));
    List<SynthesisedJob> sample = ReplayPlan.sample(all, 5);
    assertEquals(List.of(5, 10, 15), sample.stream().map(SynthesisedJob::index).toList());
    assertEquals(List.of(0L, 42000L, 44000L), sample.stream().map(SynthesisedJob::dueOffsetMs).toList());
    // the same jobs, reading the same partitions, as in the whole selection
    assertEquals(all.get(2).firstPartition(), sample.get(0).firstPartition());
    assertEquals(all.get(7).reducers(), sample.get(1).reducers());
    // the same trace jobs from another selection around them
    assertEquals(List.of(10, 15), ReplayPlan.sample(
        ReplayPlan.synthesise(trace.subList(6, 20), 6, settings(STAC, 1, 100)), 5).stream()
        .map(SynthesisedJob::index).toList());
    assertEquals(all, ReplayPlan.sample(all, 1));
    assertThrows(IllegalArgumentException.class, () -> ReplayPlan.sample(all, 0));
  }

  @Test
  void synthesisedJobReadsConsecutivePartitionsFromASeededStart() {
    SynthesisedJob job2 = ReplayPlan.synthesise(trace.subList(2, 3), 2, settings(STAC, 1, 100))
        .get(0);
    assertEquals(6, job2.partitions());
    int[] parts = job2.partitionIndexes(100);
    for (int i = 1; i < parts.length; i++) {
      assertEquals((parts[i - 1] + 1) % 100, parts[i]);
    }
    // the same seed gives the same start; the start does not depend on the other selected jobs
    assertEquals(job2.firstPartition(),
        ReplayPlan.synthesise(trace.subList(0, 3), 0, settings(STAC, 1, 100)).get(2).firstPartition());
  }

  @Test
  void refusesAPoolTooSmallSayingHowManyPartitionsAreNeeded() {
    ReplayPlan.PoolTooSmallException e = assertThrows(ReplayPlan.PoolTooSmallException.class,
        () -> ReplayPlan.synthesise(trace.subList(2, 3), 2, settings(STAC, 1, 5)));
    assertTrue(e.getMessage().contains("use at least 6 pool partitions"), e.getMessage());
  }

  @Test
  void malformedLinesAreRejectedWithTheirLineNumber() {
    java.nio.file.Path file = java.nio.file.Paths.get("t.tsv");
    TraceReader.TraceFormatException e = assertThrows(TraceReader.TraceFormatException.class,
        () -> TraceReader.parse(file, 7, "job1\t18\t9\t970\tx\t697"));
    assertTrue(e.getMessage().startsWith("t.tsv:7: shuffle bytes 'x'"), e.getMessage());
    assertThrows(TraceReader.TraceFormatException.class,
        () -> TraceReader.parse(file, 8, "job1\t18\t9\t970"));
    // extra columns (the withInputPaths traces' input path) are ignored
    assertEquals(697, TraceReader.parse(file, 9, "job1\t18\t9\t970\t609\t697\tpath").outputBytes());
  }

  private static ReplaySettings settings(Scale scale, double compression, int partitions) {
    return new ReplaySettings(scale, 17, compression, 64L << 20,
        new PoolLayout(partitions, 64L << 20), 42);
  }
}
