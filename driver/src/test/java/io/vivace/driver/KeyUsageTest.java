package io.vivace.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.conf.Key;
import io.vivace.conf.KeyRegistry;
import io.vivace.engine.Engine;
import io.vivace.workloads.SplitKeepingSleepJob;
import java.io.IOException;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The keys the code of every module names are the keys vivace-default.xml declares. The rule: a
 * string constant of a module's main classes that starts with {@code vivace.} names the key its
 * leading dotted lower-case word spells ({@code "vivace.slots=" + n + " ignored"} names
 * vivace.slots), except the names below, which share the form but are not configuration keys.
 */
class KeyUsageTest {

  /** Names of the key form that are not configuration keys: the name and what it is. */
  private static final Map<String, String> NOT_KEYS = Map.of(
      "vivace.pagerank", "counter group of PageRank's convergence counter",
      "vivace.workloads", "counter group of BadRecords' MALFORMED_LINES counter",
      "vivace.home", "JVM system property the launcher sets for the demo",
      "vivace.session.secret", "alias of the session secret in a session's Credentials",
      "vivace.session.id", "alias of the session id in a session's Credentials",
      "vivace.session.owner", "alias of the session owner in a session's Credentials");

  private static final Pattern KEY = Pattern.compile("vivace(\\.[a-z0-9][a-z0-9-]*)+");

  /** Module name (as vivace-default.xml's module element) to the string constants of its classes. */
  private static final Map<String, Set<String>> CONSTANTS = new TreeMap<>();

  @BeforeAll
  static void readClasses() throws IOException {
    CONSTANTS.put("runtime", ClassStringConstants.besideClass(Engine.class));
    CONSTANTS.put("workloads", ClassStringConstants.besideClass(SplitKeepingSleepJob.class));
    CONSTANTS.put("driver", ClassStringConstants.besideClass(JobRecorder.class));
  }

  @Test
  void everyKeyTheCodeNamesIsDeclared() {
    KeyRegistry registry = KeyRegistry.get();
    Map<String, Set<String>> undeclared = new TreeMap<>();
    CONSTANTS.forEach((module, constants) -> {
      for (String key : keysNamed(constants)) {
        if (!registry.declares(key)) {
          undeclared.computeIfAbsent(module, m -> new TreeSet<>()).add(key);
        }
      }
    });
    assertEquals(Map.of(), undeclared, "keys the code names (by module) that "
        + KeyRegistry.RESOURCE + " does not declare; declare them there (its header says how)");
  }

  @Test
  void everyDeclaredKeyIsNamedByItsModule() {
    Map<String, String> unread = new TreeMap<>();
    for (Key key : KeyRegistry.get().keys()) {
      if (!keysNamed(CONSTANTS.get(key.module())).contains(key.name())) {
        unread.put(key.name(), key.module());
      }
    }
    assertEquals(Map.of(), unread, "keys " + KeyRegistry.RESOURCE
        + " declares that no class of their module names (key to module)");
  }

  @Test
  void theNamesLeftOutAreStillThere() {
    Set<String> all = new TreeSet<>();
    CONSTANTS.values().forEach(all::addAll);
    for (String name : NOT_KEYS.keySet()) {
      assertTrue(all.contains(name), name + " (" + NOT_KEYS.get(name)
          + ") is no longer in the code: drop it from NOT_KEYS");
    }
  }

  @Test
  void theRuleReadsTheLeadingKeyOfAConstant() {
    assertEquals(Set.of("vivace.slots", "vivace.a-b.c"), keysNamed(Set.of("vivace.slots=\u0001 ignored",
        "vivace.a-b.c", "vivace.workloads", "io.vivace.exec", "vivace-worker-", "the vivace.x key")));
  }

  private static Set<String> keysNamed(Set<String> constants) {
    Set<String> keys = new TreeSet<>();
    for (String constant : constants) {
      Matcher m = KEY.matcher(constant);
      if (m.lookingAt() && !NOT_KEYS.containsKey(constant)) {
        keys.add(m.group());
      }
    }
    return keys;
  }
}
