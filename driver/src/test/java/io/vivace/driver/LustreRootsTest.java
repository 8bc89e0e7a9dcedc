package io.vivace.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
 * A study workload with its data and work roots on {@code lustre://}: it runs and validates, its
 * files lie under the configured root, and the record says what became of the stripe settings.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class LustreRootsTest {

  private Path scratch;

  @BeforeEach
  void createScratch() throws Exception {
    scratch = DriverRun.tempDir("lustre");
  }

  @AfterEach
  void removeScratch() {
    DriverRun.deleteQuietly(scratch);
  }

  @Test
  void finraQueryRunsOnLustreRootsAndRecordsTheStripeOutcome() throws Exception {
    Path mount = Files.createDirectories(scratch.resolve("mount"));
    Path record = scratch.resolve("record.json");
    String[] args = {"-D", "mapreduce.framework.name=vivace",
        "-D", "fs.lustre.root=" + mount, "-D", "fs.lustre.impl.disable.cache=true",
        "-D", "fs.lustre.stripe.count=2", "-D", "fs.lustre.lfs=" + scratch.resolve("no-lfs"),
        "--workload", "finra-query", "--record", record.toString(),
        "--data-root", "lustre:///data", "--work-root", "lustre:///work",
        "--param", "bytes=100000", "--keep-output"};

    JsonNode json = RecordChecks.assertSucceeded(
        DriverRun.run(DriverRun.conf(scratch.resolve("hadoop")), new BenchDriver(), record, args),
        "finra-query", "vivace");

    JsonNode lustre = json.at("/results/lustre");
    assertEquals(mount.toRealPath().toString(), lustre.get("root").asText(), lustre.toString());
    assertEquals(2, lustre.get("stripe_count").asInt());
    assertTrue(lustre.get("stripes").asText().startsWith("not applied"), lustre.toString());
    try (var data = Files.list(mount.resolve("data"))) {
      assertEquals(1, data.filter(Files::isDirectory).count(), "the generated data under the root");
    }
    assertTrue(Files.exists(mount.resolve("work/finra-query-out/_SUCCESS")),
        "the query's output under the root");
  }
}
