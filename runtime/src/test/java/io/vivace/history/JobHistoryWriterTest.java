package io.vivace.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.Counters;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The history file is UTF-8 JSON lines: text beyond ASCII (a job name, a configuration value, an
 * error) is written as its UTF-8 bytes, one event a line, and reads back as it went in.
 */
class JobHistoryWriterTest {

  private static final String NON_ASCII = "naïve ünïcødé ✓ 𝄞 日本語";

  @Test
  void writesNonAsciiTextAsUtf8OneEventPerLine(@TempDir Path dir) throws Exception {
    File target = dir.resolve("job_1_0001.jsonl").toFile();
    JobHistoryWriter history = new JobHistoryWriter(target);
    Configuration conf = new Configuration(false);
    conf.set("user.value", NON_ASCII);
    history.jobSubmitted(1L, "job_1_0001", "name " + NON_ASCII, "user", 0, 0, conf);
    history.jobFinished(2L, "job_1_0001", "FAILED", 1L, 1L, 2L, 0, 0, new Counters(), "why: " + NON_ASCII);
    assertEquals(target, history.complete());

    byte[] bytes = Files.readAllBytes(target.toPath());
    String text = new String(bytes, StandardCharsets.UTF_8);
    assertTrue(text.contains(NON_ASCII), "UTF-8, unescaped: " + text);
    List<String> lines = text.lines().toList();
    assertEquals(2, lines.size());
    assertTrue(text.endsWith("}\n"));
    ObjectMapper json = new ObjectMapper();
    JsonNode submitted = json.readTree(lines.get(0));
    assertEquals("JOB_SUBMITTED", submitted.path("event").asText());
    assertEquals("name " + NON_ASCII, submitted.path("jobName").asText());
    assertEquals(NON_ASCII, submitted.path("conf").path("user.value").asText());
    JsonNode finished = json.readTree(lines.get(1));
    assertEquals("why: " + NON_ASCII, finished.path("failureInfo").asText());
  }
}
