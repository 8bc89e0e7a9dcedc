package io.vivace.conf;

import java.util.Arrays;
import java.util.List;

/**
 * The type of a key's value, as {@code <type>} in vivace-default.xml names it: {@code boolean},
 * {@code int}, {@code long}, {@code double}, {@code string}, or a choice of words {@code a|b|c}.
 */
public record KeyType(Kind kind, List<String> choices) {

  public enum Kind { BOOLEAN, INT, LONG, DOUBLE, STRING, CHOICE }

  public static KeyType parse(String text) {
    if (text.contains("|")) {
      List<String> words = Arrays.stream(text.split("\\|")).map(String::trim).toList();
      if (words.size() < 2 || words.stream().anyMatch(w -> !w.matches("[a-z0-9-]+"))) {
        throw new IllegalArgumentException("a choice type lists two or more lower-case words"
            + " separated by '|', not '" + text + "'");
      }
      return new KeyType(Kind.CHOICE, words);
    }
    for (Kind kind : Kind.values()) {
      if (kind != Kind.CHOICE && kind.name().toLowerCase().equals(text)) {
        return new KeyType(kind, List.of());
      }
    }
    throw new IllegalArgumentException("unknown type '" + text
        + "' (boolean, int, long, double, string or a choice a|b)");
  }

  /** Null when {@code value} (trimmed) is a value of this type, else what it should be. */
  public String problem(String value) {
    switch (kind) {
      case BOOLEAN:
        return value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false") ? null : "true or false";
      case INT:
        return parses(() -> Integer.parseInt(value)) ? null : "a whole number (int)";
      case LONG:
        return parses(() -> Long.parseLong(value)) ? null : "a whole number (long)";
      case DOUBLE:
        return parses(() -> Double.parseDouble(value)) ? null : "a number";
      case CHOICE:
        return choices.contains(value) ? null : "one of " + String.join(", ", choices);
      default:
        return null;
    }
  }

  private static boolean parses(Runnable parse) {
    try {
      parse.run();
      return true;
    } catch (NumberFormatException e) {
      return false;
    }
  }

  @Override
  public String toString() {
    return kind == Kind.CHOICE ? String.join("|", choices) : kind.name().toLowerCase();
  }
}
