package io.vivace.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real {@code ./vivace jar} process stopped in the middle of a terasort: by SIGTERM, the job is
 * killed and aborted, nothing of it left and its history says KILLED; by SIGKILL, the next engine
 * on the same {@code hadoop.tmp.dir} removes what it left and ends its history as LOST.
 */
@Tag("integration")
@Timeout(600)
class ShutdownAndRecoveryTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path workDir;
  private Path tmp;
  private Path input;
  private VivaceScript vivace;

  @BeforeEach
  void teragen() throws Exception {
    tmp = workDir.resolve("hadoop-tmp");
    Path conf = Files.createDirectories(workDir.resolve("conf"));
    Files.writeString(conf.resolve("core-site.xml"), "<configuration>"
        + "<property><name>hadoop.tmp.dir</name><value>" + tmp + "</value></property>"
        + "<property><name>fs.defaultFS</name><value>file:///</value></property></configuration>");
    Files.writeString(conf.resolve("mapred-site.xml"), "<configuration><property>"
        + "<name>mapreduce.framework.name</name><value>vivace</value></property></configuration>");
    Files.copy(VivaceScript.repositoryRoot().resolve("conf/log4j.properties"), conf.resolve("log4j.properties"));
    vivace = new VivaceScript(workDir).env("HADOOP_CONF_DIR", conf.toString());
    input = workDir.resolve("tera-in");
    VivaceScript.Result gen = vivace.run("jar", examplesJar(), "teragen", "-D", "mapreduce.job.maps=4",
        "2000000", input.toString());
    assertEquals(0, gen.exitCode(), gen.describe());
  }

  private static String examplesJar() {
    return VivaceScript.examplesJar().toString();
  }

  /** Starts a terasort and returns once its job is set up (its output's {@code _temporary} is made). */
  private VivaceScript.Running terasortUnderWay(Path output) throws Exception {
    VivaceScript.Running running = vivace.start("jar", examplesJar(), "terasort", input.toString(), output.toString());
    long deadline = System.nanoTime() + 300_000_000_000L;
    while (!Files.isDirectory(output.resolve("_temporary"))) {
      assertTrue(running.process().isAlive(), "terasort ended before it could be stopped");
      assertTrue(System.nanoTime() < deadline, "terasort's job was never set up");
      Thread.sleep(10);
    }
    return running;
  }

  private Path historyDir() {
    return tmp.resolve("vivace/history");
  }

  /** The history files (finished ones), and what their last event says. */
  private List<JsonNode> finishedJobs() throws IOException {
    try (Stream<Path> files = Files.list(historyDir())) {
      return files.filter(p -> p.getFileName().toString().matches("job_.*\\.jsonl")).sorted().map(p -> {
        try {
          List<String> lines = Files.readAllLines(p, StandardCharsets.UTF_8);
          return JSON.readTree(lines.get(lines.size() - 1));
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }).toList();
    }
  }

  /** Everything the engines keep for running jobs: local, staging and history temporary files. */
  private List<String> jobFiles() throws IOException {
    List<String> found = new java.util.ArrayList<>();
    for (Path dir : List.of(tmp.resolve("mapred/local"), tmp.resolve("mapred/staging"), historyDir())) {
      if (Files.isDirectory(dir)) {
        try (Stream<Path> files = Files.walk(dir)) {
          files.filter(p -> p.getFileName().toString().matches("\\.?job_.*")).forEach(p -> found.add(p.toString()));
        }
      }
    }
    found.removeIf(p -> p.endsWith(".jsonl") && !p.contains("/."));
    return found;
  }

  @Test
  void sigtermKillsTheJobAndLeavesNothing() throws Exception {
    Path output = workDir.resolve("tera-out");
    VivaceScript.Running terasort = terasortUnderWay(output);
    terasort.process().destroy(); // SIGTERM
    VivaceScript.Result result = terasort.finish();
    assertEquals(143, result.exitCode(), result.describe());
    assertFalse(Files.exists(output.resolve("_temporary")), "no _temporary");
    assertFalse(Files.exists(output.resolve("_SUCCESS")));
    assertEquals(List.of(), jobFiles(), "no staging, local or scratch files, no unfinished history");
    List<JsonNode> jobs = finishedJobs();
    assertEquals("KILLED", jobs.get(jobs.size() - 1).get("status").asText(), jobs.toString());
  }

  @Tag("slow")
  @Test
  void afterSigkillTheNextEngineRemovesWhatTheDeadOneLeft() throws Exception {
    Path output = workDir.resolve("tera-out");
    VivaceScript.Running terasort = terasortUnderWay(output);
    terasort.process().destroyForcibly(); // SIGKILL: nothing of the JVM runs
    assertEquals(137, terasort.finish().exitCode());
    assertFalse(jobFiles().isEmpty(), "a killed engine leaves its job's files");
    assertTrue(Files.exists(output.resolve("_temporary")), "and its output's _temporary");

    Path words = Files.createDirectories(workDir.resolve("words"));
    Files.writeString(words.resolve("a.txt"), "a b a\n");
    VivaceScript.Result next = vivace.run("jar", examplesJar(), "wordcount", words.toString(),
        workDir.resolve("wc-out").toString());
    assertEquals(0, next.exitCode(), next.describe());
    assertEquals(List.of(), jobFiles(), "the next engine removed the dead one's files");
    assertFalse(Files.exists(output.resolve("_temporary")), "and its output's _temporary");
    List<String> statuses = finishedJobs().stream().map(j -> j.get("status").asText()).sorted().toList();
    assertTrue(statuses.contains("LOST") && statuses.contains("SUCCEEDED"), statuses.toString());
  }
}
