package io.vivace.driver.workloads;

import io.vivace.driver.Param;
import io.vivace.driver.Params;
import io.vivace.driver.Phase;
import io.vivace.driver.RecordedJob;
import io.vivace.driver.TaskSnapshot;
import io.vivace.driver.Validation;
import io.vivace.driver.WorkloadContext;
import io.vivace.workloads.SplitKeepingSleepJob;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.CounterGroup;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.SleepJob;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.TaskType;

/**
 * Apache's SleepJob with the split count kept on every runner ({@link SplitKeepingSleepJob}):
 * {@code maps} maps and {@code reduces} reduces sleeping {@code map_ms} and {@code reduce_ms}. No
 * input, no output; validation checks that the job succeeded and that {@code maps} maps ran.
 */
final class SleepWorkload extends ParamsWorkload {

  static final String NAME = "sleep";
  static final String DESCRIPTION =
      "SleepJob whose splits keep the requested map count (the scheduling test)";
  static final List<Param> PARAMS = List.of(
      Param.integer("maps", 1, 1, "", "map tasks (-m)"),
      Param.integer("reduces", 1, 0, "", "reduce tasks (-r)"),
      Param.integer("map_ms", 1, 0, "ms", "milliseconds each map sleeps (-mt)"),
      Param.integer("reduce_ms", 1, 0, "ms", "milliseconds each reduce sleeps (-rt)"));
  /** SleepJob's default {@code -recordt}: a map reads a record per 100 ms it sleeps, rounded up. */
  private static final long RECORD_SLEEP_MS = 100;

  private List<RecordedJob> jobs = List.of();

  SleepWorkload(Params params) {
    super(NAME, params);
  }

  @Override
  public void run(WorkloadContext ctx) throws Exception {
    jobs = ctx.runTool(Phase.RUN, "sleep", new SplitKeepingSleepJob(), Map.of(),
        "-m", Long.toString(params.get("maps")), "-r", Long.toString(params.get("reduces")),
        "-mt", Long.toString(params.get("map_ms")), "-rt", Long.toString(params.get("reduce_ms")));
  }

  @Override
  public Validation validate(WorkloadContext ctx) throws Exception {
    if (jobs.size() != 1) {
      return Validation.failed("sleep: expected one recorded job, got " + jobs, null, null);
    }
    RecordedJob job = jobs.get(0);
    JobStatus status = job.status();
    if (status == null || status.getState() != JobStatus.State.SUCCEEDED) {
      return Validation.failed("sleep: job " + job.id() + " did not succeed: "
          + (status == null ? "no status" : status.getState()), null, null);
    }
    MapCount mapsRan = countMapsRan(job);
    return mapsRan.asExpected()
        ? Validation.passed("sleep: job succeeded, " + mapsRan.detail(), null, null)
        : Validation.failed("sleep: " + mapsRan.detail(), null, null);
  }

  /** Whether the maps that ran are the maps asked for, and what shows it. */
  private record MapCount(boolean asExpected, String detail) {}

  /**
   * How many maps ran, from the evidence every engine gives: the map input records when each map
   * reads some (SleepJob gives a map {@code ceil(map_ms / 100)} records) and the framework counts
   * MapReduce's MAP_INPUT_RECORDS (Tez counts its own INPUT_RECORDS_PROCESSED instead); else the
   * task reports; else (Apache's local runner keeps none) SPLIT_RAW_BYTES, which every map adds
   * its split's serialised size to.
   */
  private MapCount countMapsRan(RecordedJob job) throws IOException, InterruptedException {
    long maps = params.get("maps");
    long recordsPerMap = (params.get("map_ms") + RECORD_SLEEP_MS - 1) / RECORD_SLEEP_MS;
    Counters counters = job.counters();
    if (recordsPerMap > 0 && counts(counters, TaskCounter.MAP_INPUT_RECORDS)) {
      long records = counters.findCounter(TaskCounter.MAP_INPUT_RECORDS).getValue();
      return records == maps * recordsPerMap
          ? new MapCount(true, maps + " maps ran (" + records + " map input records, "
              + recordsPerMap + " a map)")
          : new MapCount(false, records + " map input records, expected " + maps + " maps x "
              + recordsPerMap);
    }
    List<TaskSnapshot> tasks = job.tasks();
    if (!tasks.isEmpty()) {
      long succeeded = tasks.stream()
          .filter(t -> t.type() == TaskType.MAP && "SUCCEEDED".equals(t.status())).count();
      return succeeded == maps ? new MapCount(true, maps + " maps ran (task reports)")
          : new MapCount(false, succeeded + " map tasks succeeded, expected " + maps);
    }
    long splitBytes = counters.findCounter(TaskCounter.SPLIT_RAW_BYTES).getValue();
    long perSplit = serialisedSplitBytes();
    return splitBytes == maps * perSplit
        ? new MapCount(true, maps + " maps ran (SPLIT_RAW_BYTES " + splitBytes + ", " + perSplit
            + " a map)")
        : new MapCount(false, "SPLIT_RAW_BYTES " + splitBytes + ", expected " + maps + " maps x "
            + perSplit);
  }

  /** Whether the framework reported this counter at all (reading one would create it). */
  private static boolean counts(Counters counters, TaskCounter counter) {
    for (CounterGroup group : counters) {
      if (group.getName().equals(TaskCounter.class.getName())) {
        for (Counter c : group) {
          if (c.getName().equals(counter.name())) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /** The bytes of one SleepJob split in the job's split file: class name, then the split. */
  private static long serialisedSplitBytes() throws IOException {
    DataOutputBuffer out = new DataOutputBuffer();
    Text.writeString(out, SleepJob.EmptySplit.class.getName());
    new SleepJob.EmptySplit().write(out);
    return out.getLength();
  }
}
