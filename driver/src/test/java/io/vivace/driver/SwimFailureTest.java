package io.vivace.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A replay in which some jobs fail: one pool partition is overwritten with bytes that are no
 * SequenceFile (same size, so the pool's marker still matches and the pool is reused). The jobs
 * that read it fail with their reason; the others, before and after them, run; the run is stored
 * as failed in validation, counting the failed jobs.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class SwimFailureTest {

  private Path scratch;

  @BeforeEach
  void createScratch() throws Exception {
    scratch = DriverRun.tempDir("swim-failure");
  }

  @AfterEach
  void removeScratch() {
    DriverRun.deleteQuietly(scratch);
  }

  @Test
  void failedJobsAreRecordedAndTheReplayGoesOn() throws Exception {
    Path trace = scratch.resolve("trace.tsv");
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < 8; i++) {
      lines.append("job").append(i).append('\t').append(i).append('\t').append(i == 0 ? 0 : 1)
          .append("\t1000\t1000\t1000\n");
    }
    Files.writeString(trace, lines);
    JsonNode first = run(trace, "first");
    assertEquals("PASSED", first.at("/validation/status").asText(), first.toString());

    Path partition = Path.of(java.net.URI.create(first.at("/data/path").asText()))
        .resolve("part-00001");
    Files.write(partition, new byte[(int) Files.size(partition)]);
    JsonNode second = run(trace, "second");
    assertTrue(second.at("/data/reused").asBoolean());
    int failed = 0;
    for (JsonNode job : second.at("/results/swim/jobs")) {
      boolean readsBroken = job.get("first_partition").asInt() == 1;
      assertEquals(readsBroken ? "FAILED" : "SUCCEEDED", job.get("status").asText(), job.toString());
      if (readsBroken) {
        failed++;
        assertNotNull(job.get("failure").textValue(), job.toString());
      }
    }
    assertTrue(failed > 0 && failed < 8, "the seed gives jobs on both partitions: " + failed);
    assertEquals("FAILED", second.at("/validation/status").asText());
    assertTrue(second.at("/validation/detail").asText().startsWith(failed + " of 8 replayed jobs"
        + " failed"), second.at("/validation/detail").asText());
    assertEquals(8, RecordChecks.jobs(second, "run").size(), "every job recorded");
  }

  private JsonNode run(Path trace, String name) throws Exception {
    Path record = scratch.resolve(name + ".json");
    DriverRun.Result result = DriverRun.run(DriverRun.conf(scratch.resolve("hadoop")),
        new BenchDriver(), record, DriverRun.args("swim", record, scratch.resolve("data"),
            scratch.resolve("work-" + name), "--param", "trace=" + trace,
            "--param", "block_size=65536", "--param", "pool_partitions=2",
            "--param", "gap_compression=10"));
    assertNotNull(result.record(), result.describe());
    return result.record();
  }
}
