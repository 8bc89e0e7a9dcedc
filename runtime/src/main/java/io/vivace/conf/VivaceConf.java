package io.vivace.conf;

import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the Vivace keys ({@code vivace.*}) of a job's configuration, typed: a key unset in the
 * configuration gets the default vivace-default.xml declares (computed by {@link ComputedDefault}
 * where it depends on the machine or the job). A key the file does not declare, or read as
 * another type than declared, is a programming error; a value not of the key's type is an
 * {@link IllegalArgumentException} naming the key and the value.
 */
public final class VivaceConf {

  private static final Logger LOG = LoggerFactory.getLogger(VivaceConf.class);

  private VivaceConf() {
  }

  /**
   * Checks a job's configuration when it is submitted, so that a bad value fails the submission
   * rather than the tasks that read it: every declared key it sets must have a value of the key's
   * type. Returns the {@code vivace.*} keys it sets that the registry does not declare, which it
   * logs: a misspelt key would otherwise be ignored in silence (a job's own code may read such a
   * key; Vivace does not).
   */
  public static Set<String> check(Configuration conf) {
    KeyRegistry registry = KeyRegistry.get();
    for (Key key : registry.keys()) {
      if (conf.get(key.name()) != null) {
        text(conf, key);
      }
    }
    Set<String> undeclared = new TreeSet<>();
    for (String suffix : conf.getPropsWithPrefix("vivace.").keySet()) {
      if (!registry.declares("vivace." + suffix)) {
        undeclared.add("vivace." + suffix);
      }
    }
    if (!undeclared.isEmpty()) {
      LOG.warn("{} set, but not declared in {}: Vivace does not read them"
          + " (docs/configuration-keys.md lists the keys it does)", undeclared, KeyRegistry.RESOURCE);
    }
    return undeclared;
  }

  public static boolean getBoolean(Configuration conf, String name) {
    return Boolean.parseBoolean(value(conf, name, KeyType.Kind.BOOLEAN));
  }

  public static int getInt(Configuration conf, String name) {
    return Integer.parseInt(value(conf, name, KeyType.Kind.INT));
  }

  public static long getLong(Configuration conf, String name) {
    return Long.parseLong(value(conf, name, KeyType.Kind.LONG));
  }

  public static double getDouble(Configuration conf, String name) {
    return Double.parseDouble(value(conf, name, KeyType.Kind.DOUBLE));
  }

  /** A string or choice key's value; null when it is unset and has no default. */
  public static String get(Configuration conf, String name) {
    Key key = KeyRegistry.get().key(name);
    if (key.type().kind() != KeyType.Kind.STRING && key.type().kind() != KeyType.Kind.CHOICE) {
      throw wrongType(key, "string");
    }
    return text(conf, key);
  }

  /** Whether the configuration sets the key (rather than leaving it to its default). */
  public static boolean isSet(Configuration conf, String name) {
    return conf.get(KeyRegistry.get().key(name).name()) != null;
  }

  private static String value(Configuration conf, String name, KeyType.Kind kind) {
    Key key = KeyRegistry.get().key(name);
    if (key.type().kind() != kind) {
      throw wrongType(key, kind.name().toLowerCase());
    }
    String text = text(conf, key);
    if (text == null) {
      throw new IllegalArgumentException(name + " is not set and has no default");
    }
    return text;
  }

  private static String text(Configuration conf, Key key) {
    String set = key.type().kind() == KeyType.Kind.STRING ? conf.get(key.name()) : conf.getTrimmed(key.name());
    if (set != null) {
      String problem = key.type().problem(set);
      if (problem != null) {
        throw new IllegalArgumentException(key.name() + "=" + set + ": expected " + problem);
      }
      return set;
    }
    if (key.computed() != null) {
      return key.computed().value(conf);
    }
    return key.value() == null ? null : conf.substituteCommonVariables(key.value());
  }

  private static IllegalStateException wrongType(Key key, String asked) {
    return new IllegalStateException(key.name() + " is declared " + key.type() + " in "
        + KeyRegistry.RESOURCE + ", read as " + asked);
  }
}
