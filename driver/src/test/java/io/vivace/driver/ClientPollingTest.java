package io.vivace.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Every engine's timed job is submitted with the same client polling; a user's value stays. */
class ClientPollingTest {

  private Path scratch;

  @BeforeEach
  void createScratch() throws Exception {
    scratch = DriverRun.tempDir("polling");
  }

  @AfterEach
  void removeScratch() {
    DriverRun.deleteQuietly(scratch);
  }

  @Test
  void apacheLocalRunnerIsPolledLikeVivace() throws Exception {
    JsonNode configuration = runSleepOnLocal();
    assertEquals(String.valueOf(ClientPolling.PROGRESS_POLL_MILLIS),
        configuration.path(ClientPolling.PROGRESS_POLL).asText());
    assertEquals(String.valueOf(ClientPolling.COMPLETION_POLL_MILLIS),
        configuration.path(ClientPolling.COMPLETION_POLL).asText());
  }

  @Test
  void aPollingTheUserSetsIsKept() throws Exception {
    JsonNode configuration =
        runSleepOnLocal("-D", ClientPolling.COMPLETION_POLL + "=250");
    assertEquals("250", configuration.path(ClientPolling.COMPLETION_POLL).asText());
    assertEquals(String.valueOf(ClientPolling.PROGRESS_POLL_MILLIS),
        configuration.path(ClientPolling.PROGRESS_POLL).asText());
  }

  private JsonNode runSleepOnLocal(String... options) throws Exception {
    Path record = scratch.resolve("record.json");
    DriverRun.Result result = DriverRun.run(DriverRun.conf(scratch.resolve("hadoop")),
        new BenchDriver(), record, DriverRun.concat(
            DriverRun.concat(new String[] {"-D", "mapreduce.framework.name=local"}, options),
            DriverRun.args("sleep", record, scratch.resolve("data"), scratch.resolve("work"),
                "--param", "maps=1", "--param", "reduces=1")));
    return RecordChecks.assertSucceeded(result, "sleep", "local").path("configuration");
  }
}
