package io.vivace.history;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.vivace.conf.VivaceConf;
import io.vivace.counters.AttemptCounters;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.counters.AbstractCounters;
import org.apache.hadoop.mapreduce.counters.CounterGroupBase;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a job's history as JSON lines to {@code <vivace.history.dir>/<job id>.jsonl}:
 * {@code JOB_SUBMITTED} first (with the configuration),
 * then one line per task attempt start and end, and {@code JOB_FINISHED} last.
 *
 * <p>Each event is written when it happens, into a hidden temporary file beside the target (a job
 * of 25,000 tasks has 23 MB of history, which written all at once at the end held up the job's
 * completion by most of a second); {@link #complete} renames it, so the file appears whole. When
 * the history cannot be written, the job goes on: the first failure is logged and the rest of the
 * job's events are dropped, with the temporary file.
 */
public final class JobHistoryWriter {

  private static final Logger LOG = LoggerFactory.getLogger(JobHistoryWriter.class);
  private static final JsonFactory JSON = new JsonFactory();

  private final File file;
  private final File tmp;
  private JsonGenerator out;
  private IOException failure;

  public JobHistoryWriter(File file) {
    this.file = file;
    this.tmp = new File(file.getParentFile(), "." + file.getName() + ".tmp"); // = temporaryFile(dir, job id)
  }

  /** The hidden file a job's events go to while it runs. */
  public static File temporaryFile(File historyDir, String jobId) {
    return new File(historyDir, "." + jobId + ".jsonl.tmp");
  }

  /**
   * Ends the history of a job whose engine died with it (killed, or its machine lost power): a
   * last line cut short is dropped, a {@code JOB_FINISHED} event with status {@code LOST} and
   * {@code reason} as its failure info is added, and the file is moved into place.
   */
  public static void markLost(File historyDir, String jobId, long time, String reason) throws IOException {
    File tmp = temporaryFile(historyDir, jobId);
    byte[] bytes = Files.readAllBytes(tmp.toPath());
    int end = bytes.length;
    while (end > 0 && bytes[end - 1] != '\n') {
      end--;
    }
    java.io.ByteArrayOutputStream text = new java.io.ByteArrayOutputStream();
    text.write(bytes, 0, end);
    try (JsonGenerator json = JSON.createGenerator(text)) {
      json.writeStartObject();
      json.writeStringField("event", "JOB_FINISHED");
      json.writeNumberField("time", time);
      json.writeStringField("jobId", jobId);
      json.writeStringField("status", "LOST");
      json.writeStringField("failureInfo", reason);
      json.writeEndObject();
    }
    text.write('\n');
    Files.write(tmp.toPath(), text.toByteArray());
    Files.move(tmp.toPath(), new File(historyDir, jobId + ".jsonl").toPath(), StandardCopyOption.ATOMIC_MOVE);
  }

  public static File historyDir(Configuration conf) {
    return new File(VivaceConf.get(conf, "vivace.history.dir"));
  }

  public synchronized void jobSubmitted(long time, String jobId, String jobName, String user, int maps,
                                        int reduces, Configuration conf) {
    event("JOB_SUBMITTED", time, json -> {
      json.writeStringField("jobId", jobId);
      json.writeStringField("jobName", jobName);
      json.writeStringField("user", user);
      json.writeNumberField("maps", maps);
      json.writeNumberField("reduces", reduces);
      json.writeObjectFieldStart("conf");
      for (Map.Entry<String, String> e : sorted(conf).entrySet()) {
        json.writeStringField(e.getKey(), e.getValue());
      }
      json.writeEndObject();
    });
  }

  public synchronized void attemptStarted(long time, String attemptId, String taskType, String slot) {
    event("TASK_ATTEMPT_STARTED", time, json -> {
      json.writeStringField("attemptId", attemptId);
      json.writeStringField("taskType", taskType);
      json.writeStringField("slot", slot);
    });
  }

  /** @param error the failure's stack trace, for failed attempts; else null */
  public synchronized void attemptFinished(long time, String attemptId, String taskType, String status,
                                           long startTime, long finishTime, AttemptCounters counters,
                                           String error) {
    event("TASK_ATTEMPT_FINISHED", time, json -> {
      json.writeStringField("attemptId", attemptId);
      json.writeStringField("taskType", taskType);
      json.writeStringField("status", status);
      json.writeNumberField("startTime", startTime);
      json.writeNumberField("finishTime", finishTime);
      json.writeObjectFieldStart("counters");
      if (!counters.visitFrameworkOnly(new CountersJson(json))) {
        writeGroups(json, counters.toCounters());
      }
      json.writeEndObject();
      if (error != null) {
        json.writeStringField("error", error);
      }
    });
  }

  /** @param failureInfo why the job did not succeed; null when it did */
  public synchronized void jobFinished(long time, String jobId, String status, long submitTime, long startTime,
                                       long finishTime, int finishedMaps, int finishedReduces,
                                       AbstractCounters<?, ?> counters, String failureInfo) {
    event("JOB_FINISHED", time, json -> {
      json.writeStringField("jobId", jobId);
      json.writeStringField("status", status);
      json.writeNumberField("submitTime", submitTime);
      json.writeNumberField("startTime", startTime);
      json.writeNumberField("finishTime", finishTime);
      json.writeNumberField("finishedMaps", finishedMaps);
      json.writeNumberField("finishedReduces", finishedReduces);
      writeCounters(json, counters);
      if (failureInfo != null) {
        json.writeStringField("failureInfo", failureInfo);
      }
    });
  }

  /**
   * Closes the file and moves it into place; returns it.
   *
   * @throws IOException the first failure to write the history, if there was one
   */
  public synchronized File complete() throws IOException {
    if (failure == null && out != null) {
      try {
        out.close();
        out = null;
        Files.move(tmp.toPath(), file.toPath(), StandardCopyOption.REPLACE_EXISTING,
            StandardCopyOption.ATOMIC_MOVE);
      } catch (IOException e) {
        fail(e);
      }
    }
    if (failure != null) {
      throw failure;
    }
    return file;
  }

  /** What an event holds besides its type and time. */
  @FunctionalInterface
  private interface Fields {
    void write(JsonGenerator json) throws IOException;
  }

  /** Writes one event as one line, unless writing already failed. */
  private void event(String type, long time, Fields fields) {
    JsonGenerator json = begin(type, time);
    if (json == null) {
      return;
    }
    try {
      fields.write(json);
      json.writeEndObject();
      json.writeRaw('\n');
    } catch (IOException e) {
      fail(e);
    }
  }

  /** Starts an event's object: opens the file first if needed; null once writing failed. */
  private JsonGenerator begin(String event, long time) {
    if (failure != null) {
      return null;
    }
    try {
      if (out == null) {
        File dir = file.getParentFile();
        if (!dir.isDirectory() && !dir.mkdirs() && !dir.isDirectory()) {
          throw new IOException("Cannot create history directory " + dir);
        }
        out = JSON.createGenerator(Files.newBufferedWriter(tmp.toPath(), StandardCharsets.UTF_8));
        out.setRootValueSeparator(null); // lines are separated by '\n' below
      }
      out.writeStartObject();
      out.writeStringField("event", event);
      out.writeNumberField("time", time);
      return out;
    } catch (IOException e) {
      fail(e);
      return null;
    }
  }

  private void fail(IOException e) {
    if (failure != null) {
      return;
    }
    failure = e;
    LOG.warn("Could not write job history to " + file + ": " + e);
    try {
      if (out != null) {
        out.close();
      }
    } catch (IOException ignored) {
      // the failure above is what matters
    }
    out = null;
    tmp.delete();
  }

  /** Counters as {@code "counters": {"group": {"counter": value, ...}, ...}}, in Hadoop's order. */
  private static void writeCounters(JsonGenerator json, AbstractCounters<?, ?> counters) throws IOException {
    json.writeObjectFieldStart("counters");
    writeGroups(json, counters);
    json.writeEndObject();
  }

  private static void writeGroups(JsonGenerator json, AbstractCounters<?, ?> counters) throws IOException {
    synchronized (counters) {
      for (CounterGroupBase<?> group : counters) {
        json.writeObjectFieldStart(group.getName());
        for (Counter c : group) {
          json.writeNumberField(c.getName(), c.getValue());
        }
        json.writeEndObject();
      }
    }
  }

  /** Writes an attempt's framework counter slots the way {@link #writeGroups} writes Hadoop's counters. */
  private record CountersJson(JsonGenerator json) implements AttemptCounters.Visitor {
    @Override
    public void group(String name) throws IOException {
      json.writeObjectFieldStart(name);
    }

    @Override
    public void counter(String name, long value) throws IOException {
      json.writeNumberField(name, value);
    }

    @Override
    public void endGroup() throws IOException {
      json.writeEndObject();
    }
  }

  private static Map<String, String> sorted(Configuration conf) {
    Map<String, String> values = new TreeMap<>();
    for (Map.Entry<String, String> e : conf) {
      values.put(e.getKey(), e.getValue());
    }
    return values;
  }
}
