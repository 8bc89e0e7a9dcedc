package io.vivace.driver;

/**
 * One parameter of a workload: an integer with its default and smallest allowed value, or (when
 * {@code textDefault} is not null) a text such as a file path, checked by the workload itself.
 */
public record Param(String name, long defaultValue, long min, String textDefault) {

  public static Param of(String name, long defaultValue, long min) {
    return new Param(name, defaultValue, min, null);
  }

  public static Param text(String name, String defaultValue) {
    return new Param(name, 0, 0, defaultValue);
  }

  boolean isText() {
    return textDefault != null;
  }
}
