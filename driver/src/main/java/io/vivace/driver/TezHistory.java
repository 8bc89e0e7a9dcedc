package io.vivace.driver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.tez.dag.api.TezConfiguration;
import org.apache.tez.dag.history.logging.impl.SimpleHistoryLoggingService;

/**
 * The counters and task reports of a MapReduce job that ran on Tez, from the history Tez's
 * ApplicationMaster writes ({@code SimpleHistoryLoggingService}: one JSON event per record, under
 * {@code tez.simple.history.logging.dir}, a file per application attempt). Tez's MapReduce client
 * answers {@code getJobCounters} with no counters and {@code getTaskReports} with no tasks
 * (TEZ-146), so this is where the run record gets them: the DAG's counters under Tez's group names
 * as Tez reports them, and one task per Tez task, of type MAP in the DAG's first vertex
 * ({@code initialmap}) and REDUCE in the others.
 *
 * <p>The AM closes the file when it stops, shortly after the client sees the job complete; on HDFS
 * the reader waits up to {@value #CLOSE_WAIT_MS} ms for that.
 */
final class TezHistory {

  static final long CLOSE_WAIT_MS = 60_000;
  private static final long POLL_MS = 200;
  private static final String RECORD_SEPARATOR = "\u0001";
  private static final String MAP_VERTEX = "initialmap";
  private static final ObjectMapper JSON = new ObjectMapper();

  /** What the history says of one job: the DAG's counters, tasks, start and finish (or null). */
  record Reports(Counters counters, List<TaskSnapshot> tasks, Long startMs, Long finishMs) {}

  private TezHistory() {}

  /**
   * The job's reports, from the history of its application's last attempt; null when the job's
   * configuration names no history folder (or the file is missing or still open after the wait).
   */
  static Reports read(Configuration jobConf, JobID job) throws IOException, InterruptedException {
    String dir = jobConf.get(TezConfiguration.TEZ_SIMPLE_HISTORY_LOGGING_DIR);
    if (dir == null || dir.isBlank()) {
      return null;
    }
    Path folder = new Path(dir);
    FileSystem fs = folder.getFileSystem(jobConf);
    String prefix = SimpleHistoryLoggingService.LOG_FILE_NAME_PREFIX + ".appattempt_"
        + job.getJtIdentifier() + "_" + String.format("%04d", job.getId()) + "_";
    long deadline = System.currentTimeMillis() + CLOSE_WAIT_MS;
    while (true) {
      Path file = lastAttempt(fs, folder, prefix);
      if (file != null && closed(fs, file)) {
        return parse(fs, file);
      }
      if (System.currentTimeMillis() > deadline) {
        return null;
      }
      Thread.sleep(POLL_MS);
    }
  }

  private static Path lastAttempt(FileSystem fs, Path folder, String prefix) throws IOException {
    if (!fs.exists(folder)) {
      return null;
    }
    return Arrays.stream(fs.listStatus(folder, p -> p.getName().startsWith(prefix)))
        .map(FileStatus::getPath)
        .max(Comparator.comparing(Path::getName))
        .orElse(null);
  }

  private static boolean closed(FileSystem fs, Path file) throws IOException {
    return !(fs instanceof DistributedFileSystem dfs) || dfs.isFileClosed(file);
  }

  private static Reports parse(FileSystem fs, Path file) throws IOException {
    String text;
    try (InputStream in = fs.open(file)) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    Counters counters = new Counters();
    Long startMs = null;
    Long finishMs = null;
    Map<String, String> vertexNames = new HashMap<>();
    List<JsonNode> finishedTasks = new ArrayList<>();
    for (String record : text.split(RECORD_SEPARATOR)) {
      if (record.isBlank()) {
        continue;
      }
      JsonNode event = JSON.readTree(record);
      String type = event.path("events").path(0).path("eventtype").asText();
      JsonNode info = event.path("otherinfo");
      switch (type) {
        case "VERTEX_INITIALIZED" ->
            vertexNames.put(event.path("entity").asText(), info.path("vertexName").asText());
        case "TASK_FINISHED" -> finishedTasks.add(event);
        case "DAG_FINISHED" -> {
          addCounters(counters, info.path("counters"));
          startMs = Times.orNull(info.path("startTime").asLong(0));
          finishMs = Times.orNull(info.path("endTime").asLong(0));
        }
        default -> {
          // other events say nothing the run record keeps
        }
      }
    }
    List<TaskSnapshot> tasks = new ArrayList<>();
    for (JsonNode event : finishedTasks) {
      String taskId = event.path("entity").asText();
      JsonNode info = event.path("otherinfo");
      TaskType type = MAP_VERTEX.equals(vertexNames.get(vertexOf(taskId)))
          ? TaskType.MAP : TaskType.REDUCE;
      tasks.add(new TaskSnapshot(taskId, type, info.path("status").asText(null),
          Times.orNull(info.path("startTime").asLong(0)),
          Times.orNull(info.path("endTime").asLong(0))));
    }
    tasks.sort(Comparator.comparing((TaskSnapshot t) -> t.type() != TaskType.MAP)
        .thenComparing(TaskSnapshot::taskId));
    return new Reports(counters, List.copyOf(tasks), startMs, finishMs);
  }

  /** {@code task_A_B_D_VV_TTTTTT} to its vertex {@code vertex_A_B_D_VV}. */
  private static String vertexOf(String taskId) {
    int last = taskId.lastIndexOf('_');
    return last < 0 ? taskId : "vertex" + taskId.substring("task".length(), last);
  }

  private static void addCounters(Counters counters, JsonNode node) {
    for (JsonNode group : node.path("counterGroups")) {
      String groupName = group.path("counterGroupName").asText();
      for (JsonNode counter : group.path("counters")) {
        counters.findCounter(groupName, counter.path("counterName").asText())
            .setValue(counter.path("counterValue").asLong());
      }
    }
  }
}
