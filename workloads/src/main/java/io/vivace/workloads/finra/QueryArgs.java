package io.vivace.workloads.finra;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A query tool's command line: {@code -symbol}, {@code -from} and {@code -to} (defaults: the
 * study's query), other {@code -name value} options, then {@code positional} arguments.
 */
record QueryArgs(QueryFilter filter, Map<String, String> options, String[] rest) {

  static QueryArgs parse(String[] args, int positional) {
    Map<String, String> options = new LinkedHashMap<>();
    int i = 0;
    for (; i < args.length && args[i].startsWith("-"); i += 2) {
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException("option " + args[i] + " has no value");
      }
      options.put(args[i].substring(1), args[i + 1]);
    }
    if (args.length - i != positional) {
      throw new IllegalArgumentException("expected " + positional + " arguments after the options,"
          + " got " + Arrays.asList(args).subList(i, args.length));
    }
    QueryFilter study = QueryFilter.study();
    QueryFilter filter = new QueryFilter(
        options.getOrDefault("symbol", study.symbolPattern()),
        options.containsKey("from") ? QueryFilter.time("-from", options.remove("from"))
            : study.fromMs(),
        options.containsKey("to") ? QueryFilter.time("-to", options.remove("to")) : study.toMs());
    options.remove("symbol");
    return new QueryArgs(filter, options, Arrays.copyOfRange(args, i, args.length));
  }

  /** A whole-number option, its default when absent; the error names the option. */
  long longOption(String name, long defaultValue, long min) {
    String value = options.remove(name);
    long parsed;
    try {
      parsed = value == null ? defaultValue : Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("-" + name + " " + value + ": not a whole number");
    }
    if (parsed < min) {
      throw new IllegalArgumentException("-" + name + " " + value + ": at least " + min);
    }
    return parsed;
  }

  /** Fails when options are left that the tool did not take. */
  void checkNoneLeft() {
    if (!options.isEmpty()) {
      throw new IllegalArgumentException("unknown option(s) -" + String.join(", -", options.keySet()));
    }
  }
}
