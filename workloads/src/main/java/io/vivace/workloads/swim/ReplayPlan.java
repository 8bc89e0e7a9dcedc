package io.vivace.workloads.swim;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The jobs of a replay: a selection of the trace (from job {@code first}, at most {@code limit}
 * jobs, within {@code windowS} seconds of trace time from the first selected job; 0 means no
 * limit or no window) synthesised by {@link JobSynthesis}. The window starts where the trace's clock
 * stood before the first selected job (its submit time less its gap: time 0 for job 0), so a
 * 1200-second window from job 0 of FB-2010 holds STAC's first 302 jobs. Each job's first partition is drawn
 * from a random generator seeded with the replay's seed and the job's index, so a job reads the
 * same partitions whatever else is selected. A systematic sample ({@link #sample}) keeps every k-th
 * trace job at its trace time, so that an engine too slow for the whole selection replays the same
 * jobs on every engine.
 */
public final class ReplayPlan {

  private ReplayPlan() {}

  /** The selected jobs of {@code trace}, in trace order. */
  public static List<TraceJob> select(List<TraceJob> trace, int first, int limit, long windowS) {
    List<TraceJob> selected = new ArrayList<>();
    if (first >= trace.size()) {
      return selected;
    }
    long windowStartS = trace.get(first).submitS() - trace.get(first).gapS();
    for (int i = first; i < trace.size(); i++) {
      TraceJob job = trace.get(i);
      if ((limit > 0 && selected.size() >= limit)
          || (windowS > 0 && job.submitS() - windowStartS >= windowS)) {
        break;
      }
      selected.add(job);
    }
    return selected;
  }

  /**
   * The synthesised jobs; {@code firstIndex} is the trace position of {@code selected}'s first.
   *
   * @throws PoolTooSmallException if a job needs more partitions than the pool has
   */
  public static List<SynthesisedJob> synthesise(List<TraceJob> selected, int firstIndex,
      ReplaySettings settings) {
    PoolLayout pool = settings.pool();
    Scale scale = settings.scale();
    List<SynthesisedJob> jobs = new ArrayList<>();
    long gapsS = 0;
    for (int i = 0; i < selected.size(); i++) {
      TraceJob trace = selected.get(i);
      if (i > 0) {
        gapsS += trace.gapS();
      }
      long input = JobSynthesis.input(trace.inputBytes(), scale, pool);
      long shuffle = JobSynthesis.shuffleOrOutput(trace.shuffleBytes(), scale);
      long output = JobSynthesis.shuffleOrOutput(trace.outputBytes(), scale);
      long partitions = JobSynthesis.partitions(input, pool);
      int index = firstIndex + i;
      if (partitions > pool.partitions()) {
        throw new PoolTooSmallException("trace job " + index + " (" + trace.name() + ", line "
            + trace.line() + ") reads " + input + " bytes at scale " + scale + ": " + partitions
            + " partitions of " + pool.usableBytes() + " usable bytes, but the pool has "
            + pool.partitions() + "; use at least " + partitions + " pool partitions");
      }
      int firstPartition =
          new Random(Seeds.of(settings.seed(), index, Seeds.PARTITION_START)).nextInt(pool.partitions());
      jobs.add(new SynthesisedJob(index, trace,
          JobSynthesis.dueOffsetMs(gapsS, settings.gapCompression()), scale.apply(trace.inputBytes()),
          scale.apply(trace.shuffleBytes()), scale.apply(trace.outputBytes()), input, shuffle,
          output, firstPartition, (int) partitions,
          JobSynthesis.reducers(shuffle, output, settings.bytesPerReduce(), settings.clusterNodes()),
          JobSynthesis.mapRecordsPerInputRecord(shuffle, partitions, pool),
          JobSynthesis.reduceRecordsPerValue(shuffle, output)));
    }
    return jobs;
  }

  /**
   * The jobs whose trace position is a multiple of {@code every} (the same trace jobs whatever the
   * selection around them), each still due at its trace time relative to the others: their due
   * offsets less the first kept job's, so the replay starts with it. {@code every} 1 keeps all.
   */
  public static List<SynthesisedJob> sample(List<SynthesisedJob> jobs, int every) {
    if (every < 1) {
      throw new IllegalArgumentException("sample every " + every + " jobs: must be at least 1");
    }
    List<SynthesisedJob> kept = new ArrayList<>();
    long startMs = -1;
    for (SynthesisedJob job : jobs) {
      if (job.index() % every != 0) {
        continue;
      }
      if (startMs < 0) {
        startMs = job.dueOffsetMs();
      }
      kept.add(new SynthesisedJob(job.index(), job.trace(), job.dueOffsetMs() - startMs,
          job.scaledInput(), job.scaledShuffle(), job.scaledOutput(), job.input(), job.shuffle(),
          job.output(), job.firstPartition(), job.partitions(), job.reducers(), job.mapRatio(),
          job.reduceRatio()));
    }
    return kept;
  }

  /** The pool cannot serve a job's input; the message says how many partitions are needed. */
  public static final class PoolTooSmallException extends IllegalArgumentException {
    public PoolTooSmallException(String message) {
      super(message);
    }
  }
}
