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
   * unknown name, a missing required parameter, or a value that is not of the parameter's type
   * and at least its minimum is a usage error that names it.
   */
  public static Params resolve(String workload, List<Param> declared, Map<String, String> given)
      throws UsageException {
    Map<String, String> values = new LinkedHashMap<>();
    List<String> names = new ArrayList<>();
    for (Param param : declared) {
      names.add(param.name());
      values.put(param.name(), param.defaultText());
    }
    for (Map.Entry<String, String> entry : given.entrySet()) {
      String name = entry.getKey();
      Param param = declared.stream().filter(p -> p.name().equals(name)).findFirst()
          .orElseThrow(() -> new UsageException("unknown param '" + name + "' for workload "
              + workload + " (known: " + String.join(", ", names) + ")"));
      values.put(name, checked(workload, param, entry.getValue()));
    }
    for (Param param : declared) {
      if (param.required() && values.get(param.name()).isBlank()) {
        throw new UsageException("workload " + workload + " needs --param " + param.name()
            + "=VALUE: " + param.description());
      }
    }
    return new Params(values);
  }

  /** The value as the run record writes it: whole numbers normalised, others as given. */
  private static String checked(String workload, Param param, String text)
      throws UsageException {
    try {
      switch (param.type()) {
        case INT, SIZE -> {
          long value = Long.parseLong(text.trim());
          if (value >= param.min().longValue()) {
            return Long.toString(value);
          }
        }
        case NUMBER -> {
          double value = Double.parseDouble(text.trim());
          if (value >= param.min().doubleValue() && !Double.isInfinite(value)) {
            return text.trim();
          }
        }
        case TEXT -> {
          return text;
        }
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new UsageException("malformed value for param " + param.name() + " of workload "
        + workload + ": '" + text + "' (" + (param.isWhole() ? "an integer" : "a number")
        + " >= " + param.min() + ")");
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

  public double number(String name) {
    return Double.parseDouble(text(name));
  }

  public int intValue(String name) {
    return Math.toIntExact(get(name));
  }

  /** name to value as text, in declaration order, as the run record writes them. */
  public Map<String, String> asText() {
    return new LinkedHashMap<>(values);
  }
}
