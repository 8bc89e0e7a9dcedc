package io.vivace.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Generated input is reused while its marker matches; a changed parameter, a missing or
 * unreadable marker, a marker for other parameters, or data whose size changed since it was
 * marked make the driver generate it again.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class DataReuseTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private Path scratch;
  private Path dataRoot;
  private int runs;

  @BeforeEach
  void createScratch() throws Exception {
    scratch = DriverRun.tempDir("reuse");
    dataRoot = scratch.resolve("data");
  }

  @AfterEach
  void removeScratch() {
    DriverRun.deleteQuietly(scratch);
  }

  /** A tiny terasort, all on Vivace; returns the record's data. */
  private JsonNode terasort(long rows, String expectedLine) throws Exception {
    runs++;
    Path record = scratch.resolve("record-" + runs + ".json");
    DriverRun.Result result = DriverRun.run(DriverRun.conf(scratch.resolve("hadoop")),
        new BenchDriver(), record, DriverRun.concat(
            new String[] {"-D", "mapreduce.framework.name=vivace"},
            DriverRun.args("terasort", record, dataRoot, scratch.resolve("work"),
                "--param", "rows=" + rows, "--validate-framework", "vivace")));
    RecordChecks.assertSucceeded(result, "terasort", "vivace");
    assertTrue(result.stderr().contains(expectedLine),
        "expected '" + expectedLine + "' in\n" + result.stderr());
    JsonNode data = result.record().get("data");
    assertEquals(rows * 100, data.get("actual_bytes").asLong(), data.toString());
    boolean generated = !RecordChecks.jobs(result.record(), "prepare").isEmpty();
    assertEquals(!data.get("reused").asBoolean(), generated, "reused means no generation job");
    return data;
  }

  private Path dataDir(long rows) {
    return dataRoot.resolve("teragen-rows=" + rows + "-maps=2");
  }

  private Path marker(long rows) {
    return dataDir(rows).resolve(DataMarker.FILE_NAME);
  }

  /** Changes a file behind the local file system's back: its .crc would no longer match. */
  private static void dropChecksum(Path file) throws Exception {
    Files.deleteIfExists(file.resolveSibling("." + file.getFileName() + ".crc"));
  }

  @Test
  void reusesMatchingDataAndRegeneratesOtherParams() throws Exception {
    JsonNode first = terasort(1000, "generating");
    assertFalse(first.get("reused").asBoolean());
    assertTrue(first.get("path").asText().endsWith("teragen-rows=1000-maps=2"), first.toString());
    assertTrue(first.get("checksum").asText().startsWith("terasum:"), first.toString());

    JsonNode second = terasort(1000, "reusing");
    assertTrue(second.get("reused").asBoolean());
    assertEquals(first.get("checksum"), second.get("checksum"));

    JsonNode other = terasort(1500, "it does not exist");
    assertFalse(other.get("reused").asBoolean());
    assertNotEquals(first.get("path"), other.get("path"));
    assertTrue(Files.exists(marker(1000)), "data of other params stays");
  }

  @Test
  void regeneratesWhenTheMarkerIsMissingUnreadableOrForOtherParams() throws Exception {
    terasort(1000, "generating");

    Files.delete(marker(1000));
    dropChecksum(marker(1000));
    assertFalse(terasort(1000, "it has no marker").get("reused").asBoolean());

    Files.writeString(marker(1000), "{ not json");
    dropChecksum(marker(1000));
    assertFalse(terasort(1000, "its marker is unreadable").get("reused").asBoolean());

    ObjectNode marker = (ObjectNode) JSON.readTree(marker(1000).toFile());
    ((ObjectNode) marker.get("params")).put("rows", "999");
    Files.writeString(marker(1000), marker.toString());
    dropChecksum(marker(1000));
    assertFalse(terasort(1000, "its marker's params {rows=999, maps=2} differ")
        .get("reused").asBoolean());

    assertTrue(terasort(1000, "reusing").get("reused").asBoolean(), "marked again");
  }

  @Test
  void regeneratesWhenTheDataChangedSinceItWasMarked() throws Exception {
    terasort(1000, "generating");
    Path part = dataDir(1000).resolve("part-m-00001");
    try (RandomAccessFile file = new RandomAccessFile(part.toFile(), "rw")) {
      file.setLength(file.length() - 100);
    }
    dropChecksum(part);
    assertFalse(terasort(1000, "it holds 99900 bytes, its marker says 100000")
        .get("reused").asBoolean());
  }
}
