package io.vivace.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vivace.driver.workloads.Workloads;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.Test;

/**
 * {@code --list-workloads}: the JSON the lab and bench/run read instead of a list of their own
 * (docs/run-record.md, "The workload catalogue").
 */
class CatalogueTest {

  private static final Set<String> TYPES = Set.of("int", "size", "number", "text");

  private static JsonNode listed() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream original = System.out;
    int exitCode;
    try (PrintStream captured = new PrintStream(out, true, StandardCharsets.UTF_8)) {
      System.setOut(captured);
      exitCode = ToolRunner.run(new Configuration(), new BenchDriver(),
          new String[] {"--list-workloads"});
    } finally {
      System.setOut(original);
    }
    assertEquals(BenchDriver.SUCCEEDED, exitCode);
    return new ObjectMapper().readTree(out.toString(StandardCharsets.UTF_8));
  }

  @Test
  void listsEveryWorkloadTheDriverRunsWithTheParamsARunGets() throws Exception {
    JsonNode catalogue = listed();
    assertEquals(1, catalogue.get("format").asInt());
    List<String> listed = new ArrayList<>();
    for (JsonNode workload : catalogue.get("workloads")) {
      String name = workload.get("name").asText();
      listed.add(name);
      assertFalse(workload.get("description").asText().isBlank(), name);
      Map<String, String> required = new LinkedHashMap<>();
      Map<String, String> listedDefaults = new LinkedHashMap<>();
      for (JsonNode param : workload.get("params")) {
        String paramName = param.get("name").asText();
        assertTrue(TYPES.contains(param.get("type").asText()), name + " " + paramName);
        assertFalse(param.get("description").asText().isBlank(), name + " " + paramName);
        if (param.get("required").asBoolean()) {
          required.put(paramName, "given");
          listedDefaults.put(paramName, "given");
        } else {
          listedDefaults.put(paramName, param.get("type").asText().equals("text")
              ? param.get("default").asText() : param.get("default").toString());
          if (param.has("min")) {
            assertTrue(param.get("default").asDouble() >= param.get("min").asDouble(),
                name + " " + paramName + ": its default is below its minimum");
          }
        }
      }
      // Every listed workload is one the driver makes, with exactly the params listed, whose
      // defaults are the values a run without --param gets.
      Workload made = Workloads.create(name, required);
      assertEquals(listedDefaults, made.params().asText(), name);
      assertEquals(name, made.name());
    }
    assertEquals(Workloads.names(), listed);
  }

  @Test
  void listedMinimumsAreTheOnesTheDriverChecks() throws Exception {
    Map<String, JsonNode> swim = new LinkedHashMap<>();
    for (JsonNode workload : listed().get("workloads")) {
      if (workload.get("name").asText().equals("swim")) {
        workload.get("params").forEach(p -> swim.put(p.get("name").asText(), p));
      }
    }
    assertEquals("number", swim.get("gap_compression").get("type").asText());
    assertEquals("size", swim.get("block_size").get("type").asText());
    assertTrue(swim.get("trace").get("required").asBoolean());
    String gapMin = swim.get("gap_compression").get("min").asText();
    long blockMin = swim.get("block_size").get("min").asLong();
    Params atMinimums = Params.resolve("swim", paramsOf("swim"), Map.of("trace", "t.tsv",
        "gap_compression", gapMin, "block_size", Long.toString(blockMin)));
    assertEquals(Double.parseDouble(gapMin), atMinimums.number("gap_compression"));
    assertEquals(blockMin, atMinimums.get("block_size"));
    UsageException gapBelow = assertThrows(UsageException.class, () -> Params.resolve("swim",
        paramsOf("swim"), Map.of("trace", "t.tsv", "gap_compression", "0.0009")));
    assertTrue(gapBelow.getMessage().endsWith("(a number >= " + gapMin + ")"),
        gapBelow.getMessage());
    UsageException blockBelow = assertThrows(UsageException.class, () -> Params.resolve("swim",
        paramsOf("swim"), Map.of("trace", "t.tsv", "block_size", Long.toString(blockMin - 1))));
    assertTrue(blockBelow.getMessage().endsWith("(an integer >= " + blockMin + ")"),
        blockBelow.getMessage());
  }

  private static List<Param> paramsOf(String name) {
    return Workloads.types().stream().filter(t -> t.name().equals(name)).findFirst()
        .orElseThrow().params();
  }
}
