package io.vivace.shuffle.net;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/** What a reducer asks an executor for: one partition of the output one attempt of one map made. */
public record MapOutputRequest(String jobId, int mapIndex, String attemptId, int partition) {

  public MapOutputRequest {
    requireText(ShuffleProtocol.PARAM_JOB, jobId);
    requireText(ShuffleProtocol.PARAM_ATTEMPT, attemptId);
    if (mapIndex < 0) {
      throw new IllegalArgumentException("map index " + mapIndex + " is negative");
    }
    if (partition < 0) {
      throw new IllegalArgumentException("partition " + partition + " is negative");
    }
  }

  private static void requireText(String name, String value) {
    if (value == null || value.isEmpty()) {
      throw new IllegalArgumentException("no " + name + " id");
    }
    if (value.indexOf('\n') >= 0) {
      throw new IllegalArgumentException(name + " id " + value.strip() + " holds a line break");
    }
  }

  /** The text the request's MAC covers: one field a line (no field holds a line break). */
  String canonical() {
    return jobId + "\n" + mapIndex + "\n" + attemptId + "\n" + partition;
  }

  /** The request's path and query, as a request line names them. */
  String target() {
    return ShuffleProtocol.PATH + "?" + ShuffleProtocol.PARAM_JOB + "=" + encode(jobId)
        + "&" + ShuffleProtocol.PARAM_MAP + "=" + mapIndex
        + "&" + ShuffleProtocol.PARAM_ATTEMPT + "=" + encode(attemptId)
        + "&" + ShuffleProtocol.PARAM_PARTITION + "=" + partition;
  }

  /**
   * The request a query string ({@code job=...&map=...&attempt=...&reduce=...}, encoded) asks for;
   * an {@link IllegalArgumentException} naming what is missing or wrong.
   */
  static MapOutputRequest parse(String rawQuery) {
    Map<String, String> params = new HashMap<>();
    if (rawQuery != null) {
      for (String pair : rawQuery.split("&")) {
        int eq = pair.indexOf('=');
        if (eq > 0 && params.put(decode(pair.substring(0, eq)), decode(pair.substring(eq + 1))) != null) {
          throw new IllegalArgumentException("parameter " + pair.substring(0, eq) + " given twice");
        }
      }
    }
    return new MapOutputRequest(params.get(ShuffleProtocol.PARAM_JOB),
        number(params, ShuffleProtocol.PARAM_MAP), params.get(ShuffleProtocol.PARAM_ATTEMPT),
        number(params, ShuffleProtocol.PARAM_PARTITION));
  }

  private static int number(Map<String, String> params, String name) {
    String value = params.get(name);
    if (value == null) {
      throw new IllegalArgumentException("no " + name + " parameter");
    }
    try {
      return Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("parameter " + name + "=" + value + " is not a number");
    }
  }

  private static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  private static String decode(String s) {
    return URLDecoder.decode(s, StandardCharsets.UTF_8);
  }

  @Override
  public String toString() {
    return "partition " + partition + " of map " + mapIndex + " (" + attemptId + ") of " + jobId;
  }
}
