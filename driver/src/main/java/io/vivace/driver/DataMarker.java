package io.vivace.driver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The file written into a data directory once its generation fully succeeded: the generation
 * parameters, the bytes measured on the file system, the checksum and figures, and when and on
 * which framework it was generated. A directory without it is never reused.
 */
record DataMarker(String key, Map<String, String> params, long requestedBytes, long actualBytes,
    String checksum, Map<String, Long> figures, String framework, long generatedMs,
    long generationMs) {

  static final String FILE_NAME = "_vivace_data.json";
  private static final int VERSION = 1;
  private static final ObjectMapper JSON = new ObjectMapper();

  static Path path(Path dir) {
    return new Path(dir, FILE_NAME);
  }

  /** Writes the marker under a temporary name, then renames it into place. */
  void write(FileSystem fs, Path dir) throws IOException {
    ObjectNode node = JSON.createObjectNode();
    node.put("marker_version", VERSION);
    node.put("key", key);
    ObjectNode paramsNode = node.putObject("params");
    params.forEach(paramsNode::put);
    node.put("requested_bytes", requestedBytes);
    node.put("actual_bytes", actualBytes);
    node.put("checksum", checksum);
    ObjectNode figuresNode = node.putObject("figures");
    figures.forEach(figuresNode::put);
    node.put("framework", framework);
    node.put("generated_ms", generatedMs);
    node.put("generation_ms", generationMs);
    Path temp = new Path(dir, FILE_NAME + ".tmp");
    try (OutputStream out = fs.create(temp, true)) {
      JSON.writerWithDefaultPrettyPrinter().writeValue(out, node);
    }
    Path target = path(dir);
    fs.delete(target, false);
    if (!fs.rename(temp, target)) {
      throw new IOException("could not rename " + temp + " to " + target);
    }
  }

  /** The marker in {@code dir}, or null if there is none. */
  static DataMarker read(FileSystem fs, Path dir) throws IOException {
    Path file = path(dir);
    if (!fs.exists(file)) {
      return null;
    }
    JsonNode node;
    try (InputStream in = fs.open(file)) {
      node = JSON.readTree(in);
    }
    if (node == null || node.path("marker_version").asInt() != VERSION) {
      throw new IOException("not a version " + VERSION + " marker");
    }
    return new DataMarker(text(node, "key"), textMap(node.path("params")),
        number(node, "requested_bytes"), number(node, "actual_bytes"),
        node.path("checksum").isTextual() ? node.get("checksum").asText() : null,
        numberMap(node.path("figures")), text(node, "framework"), number(node, "generated_ms"),
        number(node, "generation_ms"));
  }

  private static String text(JsonNode node, String field) throws IOException {
    JsonNode value = node.get(field);
    if (value == null || !value.isTextual()) {
      throw new IOException("no " + field);
    }
    return value.asText();
  }

  private static long number(JsonNode node, String field) throws IOException {
    JsonNode value = node.get(field);
    if (value == null || !value.canConvertToLong()) {
      throw new IOException("no " + field);
    }
    return value.asLong();
  }

  private static Map<String, String> textMap(JsonNode node) throws IOException {
    Map<String, String> map = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> field = it.next();
      if (!field.getValue().isTextual()) {
        throw new IOException("param " + field.getKey() + " is not text");
      }
      map.put(field.getKey(), field.getValue().asText());
    }
    return map;
  }

  private static Map<String, Long> numberMap(JsonNode node) throws IOException {
    Map<String, Long> map = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> field = it.next();
      if (!field.getValue().canConvertToLong()) {
        throw new IOException("figure " + field.getKey() + " is not a number");
      }
      map.put(field.getKey(), field.getValue().asLong());
    }
    return map;
  }
}
