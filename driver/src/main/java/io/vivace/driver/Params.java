package io.vivace.driver;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A workload's parameters: every declared one, given on the command line or defaulted. */
public final class Params {

  private final Map<String, String> values;

  private Params(Map<String, String> values) {
    this.values = Collections.unmodifiableMap(values);
  }

  /**
   * The declared parameters with the {@code given} values ({@code --param key=value}); an
   * unknown name or a value that is not an integer of at least the parameter's minimum is a usage
   * error that names it.
   */
  public static Params resolve(String workload, List<Param> declared, Map<String, String> given)
      throws UsageException {
    Map<String, String> values = new LinkedHashMap<>();
    List<String> names = new ArrayList<>();
    for (Param param : declared) {
      names.add(param.name());
      values.put(param.name(),
          param.isText() ? param.textDefault() : Long.toString(param.defaultValue()));
    }
    for (Map.Entry<String, String> entry : given.entrySet()) {
      String name = entry.getKey();
      Param param = declared.stream().filter(p -> p.name().equals(name)).findFirst()
          .orElseThrow(() -> new UsageException("unknown param '" + name + "' for workload "
              + workload + " (known: " + String.join(", ", names) + ")"));
      values.put(name, param.isText() ? entry.getValue()
          : Long.toString(parse(workload, param, entry.getValue())));
    }
    return new Params(values);
  }

  private static long parse(String workload, Param param, String text) throws UsageException {
    try {
      long value = Long.parseLong(text.trim());
      if (value >= param.min()) {
        return value;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new UsageException("malformed value for param " + param.name() + " of workload "
        + workload + ": '" + text + "' (an integer >= " + param.min() + ")");
  }

  public long get(String name) {
    return Long.parseLong(text(name));
  }

  /** The value as given (a text param's, or an integer's digits). */
  public String text(String name) {
    String value = values.get(name);
    if (value == null) {
      throw new IllegalArgumentException("no param " + name);
    }
    return value;
  }

  public int intValue(String name) {
    return Math.toIntExact(get(name));
  }

  /** name to value as text, in declaration order, as the run record writes them. */
  public Map<String, String> asText() {
    return new LinkedHashMap<>(values);
  }
}
