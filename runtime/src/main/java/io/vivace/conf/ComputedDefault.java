package io.vivace.conf;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRJobConfig;

/**
 * The defaults that depend on the machine or the job, named by {@code <computed>} in
 * vivace-default.xml, each computed here only.
 */
public enum ComputedDefault {

  CORES("cores", KeyType.Kind.INT, "the number of cores") {
    @Override
    String value(Configuration conf) {
      return Integer.toString(cores());
    }
  },
  QUARTER_OF_HEAP_MB("quarter-of-heap-mb", KeyType.Kind.LONG, "a quarter of the maximum heap") {
    @Override
    String value(Configuration conf) {
      return Long.toString((Runtime.getRuntime().maxMemory() / 4) >> 20);
    }
  },
  /** Then a core would otherwise idle while the reduces run. */
  FEWER_REDUCES_THAN_CORES("fewer-reduces-than-cores", KeyType.Kind.BOOLEAN,
      "`true` when the job has fewer reduces than the machine has cores") {
    @Override
    String value(Configuration conf) {
      return Boolean.toString(conf.getInt(MRJobConfig.NUM_REDUCES, 1) < cores());
    }
  };

  private final String xmlName;
  private final KeyType.Kind kind;
  private final String text;

  ComputedDefault(String xmlName, KeyType.Kind kind, String text) {
    this.xmlName = xmlName;
    this.kind = kind;
    this.text = text;
  }

  /** The default for a job of this configuration on this machine, as text of the key's type. */
  abstract String value(Configuration conf);

  /** The name vivace-default.xml gives it. */
  public String xmlName() {
    return xmlName;
  }

  public KeyType.Kind kind() {
    return kind;
  }

  /** The default in words, for the documentation. */
  public String text() {
    return text;
  }

  static ComputedDefault named(String name) {
    for (ComputedDefault computed : values()) {
      if (computed.xmlName.equals(name)) {
        return computed;
      }
    }
    throw new IllegalArgumentException("unknown computed default '" + name + "'");
  }

  private static int cores() {
    return Runtime.getRuntime().availableProcessors();
  }
}
