package io.vivace.driver;

/** One integer parameter of a workload, with its default and smallest allowed value. */
public record Param(String name, long defaultValue, long min) {

  public static Param of(String name, long defaultValue, long min) {
    return new Param(name, defaultValue, min);
  }
}
