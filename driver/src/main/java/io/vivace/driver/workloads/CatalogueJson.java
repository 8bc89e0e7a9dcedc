package io.vivace.driver.workloads;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vivace.driver.Param;

/**
 * The workload catalogue as {@code vivace driver --list-workloads} prints it (docs/run-record.md,
 * "The workload catalogue"): every workload with its description, where its roots may be, and its
 * parameters with their type, default, minimum, unit and meaning.
 */
public final class CatalogueJson {

  /** The layout's version: raised when a reader of the previous one would misread it. */
  public static final int FORMAT = 1;

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private CatalogueJson() {}

  public static String text() {
    ObjectNode root = JSON.createObjectNode();
    root.put("format", FORMAT);
    ArrayNode workloads = root.putArray("workloads");
    for (Workloads.Type type : Workloads.types()) {
      ObjectNode workload = workloads.addObject();
      workload.put("name", type.name());
      workload.put("description", type.description());
      workload.put("roots", type.roots().label());
      ArrayNode params = workload.putArray("params");
      for (Param param : type.params()) {
        params.add(param(param));
      }
    }
    try {
      return JSON.writeValueAsString(root);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write the workload catalogue", e);
    }
  }

  private static ObjectNode param(Param param) {
    ObjectNode node = JSON.createObjectNode();
    node.put("name", param.name());
    node.put("type", param.type().label());
    switch (param.type()) {
      case INT, SIZE -> {
        node.put("default", Long.parseLong(param.defaultText()));
        node.put("min", param.min().longValue());
      }
      case NUMBER -> {
        node.put("default", Double.parseDouble(param.defaultText()));
        node.put("min", param.min().doubleValue());
      }
      case TEXT -> node.put("default", param.defaultText());
    }
    node.put("unit", param.unit());
    node.put("required", param.required());
    node.put("description", param.description());
    return node;
  }
}
