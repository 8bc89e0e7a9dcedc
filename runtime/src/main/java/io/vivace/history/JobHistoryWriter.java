package io.vivace.history;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.File;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.counters.AbstractCounters;
import org.apache.hadoop.mapreduce.counters.CounterGroupBase;

/**
 * Collects a job's history events and writes them, when the job ends, as JSON lines to
 * {@code <vivace.history.dir>/<job id>.jsonl} (default {@code ${hadoop.tmp.dir}/vivace/history}).
 * The first line is {@code JOB_SUBMITTED} (with the configuration), then one line per task attempt
 * start and end, and {@code JOB_FINISHED} last. The file appears atomically.
 *
 * <p>An event's {@code counters} may be a Hadoop {@link AbstractCounters}: it is written as a map of
 * groups to maps of counter names to values when the file is written, not copied into maps per
 * attempt, so the caller must not change it after handing it over.
 */
public final class JobHistoryWriter {

  public static final String HISTORY_DIR = "vivace.history.dir";

  @SuppressWarnings({"rawtypes", "unchecked"})
  private static final ObjectMapper JSON = new ObjectMapper()
      .disable(SerializationFeature.FLUSH_AFTER_WRITE_VALUE) // one buffered write, not one per event
      .registerModule(new SimpleModule().addSerializer((Class) AbstractCounters.class, new CountersJson()));

  private final List<Map<String, Object>> events = new ArrayList<>();

  public static File historyDir(Configuration conf) {
    String dir = conf.get(HISTORY_DIR);
    return new File(dir != null ? dir : conf.get("hadoop.tmp.dir", "/tmp") + "/vivace/history");
  }

  /** Starts an event; the returned map keeps insertion order and can be filled further. */
  public synchronized Map<String, Object> event(String type, long time) {
    Map<String, Object> e = new LinkedHashMap<>();
    e.put("event", type);
    e.put("time", time);
    events.add(e);
    return e;
  }

  /** Counters as JSON: {@code {"group": {"counter": value, ...}, ...}}, in Hadoop's order. */
  private static final class CountersJson extends StdSerializer<AbstractCounters<?, ?>> {

    @SuppressWarnings({"rawtypes", "unchecked"})
    CountersJson() {
      super((Class) AbstractCounters.class);
    }

    @Override
    public void serialize(AbstractCounters<?, ?> counters, JsonGenerator out, SerializerProvider provider)
        throws IOException {
      out.writeStartObject();
      synchronized (counters) {
        for (CounterGroupBase<?> group : counters) {
          out.writeObjectFieldStart(group.getName());
          for (Counter c : group) {
            out.writeNumberField(c.getName(), c.getValue());
          }
          out.writeEndObject();
        }
      }
      out.writeEndObject();
    }
  }

  public static Map<String, String> configuration(Configuration conf) {
    Map<String, String> values = new java.util.TreeMap<>();
    for (Map.Entry<String, String> e : conf) {
      values.put(e.getKey(), e.getValue());
    }
    return values;
  }

  /** Writes the events to {@code file}; returns the file. */
  public synchronized File write(File file) throws IOException {
    File dir = file.getParentFile();
    if (!dir.isDirectory() && !dir.mkdirs() && !dir.isDirectory()) {
      throw new IOException("Cannot create history directory " + dir);
    }
    File tmp = new File(dir, "." + file.getName() + ".tmp");
    try (Writer out = Files.newBufferedWriter(tmp.toPath(), StandardCharsets.UTF_8);
         JsonGenerator json = JSON.getFactory().createGenerator(out)) {
      json.setRootValueSeparator(null);
      for (Map<String, Object> e : events) {
        JSON.writeValue(json, e);
        json.writeRaw('\n');
      }
    }
    Files.move(tmp.toPath(), file.toPath(), StandardCopyOption.REPLACE_EXISTING,
        StandardCopyOption.ATOMIC_MOVE);
    return file;
  }
}
