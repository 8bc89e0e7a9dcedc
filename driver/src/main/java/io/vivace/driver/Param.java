package io.vivace.driver;

/**
 * One parameter of a workload, as the driver takes it ({@code --param name=value}) and lists it
 * ({@code --list-workloads}): its type, its default as the run record writes it, its smallest
 * allowed value (a {@link Long} for {@link Type#INT} and {@link Type#SIZE}, a {@link Double} for
 * {@link Type#NUMBER}, null for {@link Type#TEXT}), its unit (empty for a count) and its meaning.
 * A required parameter has no default: a run without it is a usage error.
 */
public record Param(String name, Type type, String defaultText, Number min, String unit,
    String description, boolean required) {

  /** How a value is written and checked. */
  public enum Type {
    /** A whole number. */
    INT("int"),
    /** A whole number of bytes (the lab also reads 64MiB, 1GB, 512m). */
    SIZE("size"),
    /** A real number. */
    NUMBER("number"),
    /** Any text, such as a file path; the workload checks it. */
    TEXT("text");

    private final String label;

    Type(String label) {
      this.label = label;
    }

    /** The name {@code --list-workloads} gives the type. */
    public String label() {
      return label;
    }
  }

  public static Param integer(String name, long defaultValue, long min, String unit,
      String description) {
    return new Param(name, Type.INT, Long.toString(defaultValue), min, unit, description, false);
  }

  public static Param size(String name, long defaultValue, long min, String description) {
    return new Param(name, Type.SIZE, Long.toString(defaultValue), min, "bytes", description,
        false);
  }

  public static Param number(String name, double defaultValue, double min, String unit,
      String description) {
    return new Param(name, Type.NUMBER, Double.toString(defaultValue), min, unit, description,
        false);
  }

  /** A text the run cannot do without (its default is empty). */
  public static Param requiredText(String name, String description) {
    return new Param(name, Type.TEXT, "", null, "", description, true);
  }

  /** Whole numbers: {@link Type#INT} and {@link Type#SIZE}. */
  public boolean isWhole() {
    return type == Type.INT || type == Type.SIZE;
  }
}
