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
 * vivace.slots), except the counter group names below, which share the form.
 */
class KeyUsageTest {

  /** Hadoop counter groups, not keys: the name and who counts in it. */
  private static final Map<String, String> COUNTER_GROUPS = Map.of(
      "vivace.pagerank", "PageRank's convergence counter",
      "vivace.workloads", "BadRecords' MALFORMED_LINES counter");

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
  void theCounterGroupsLeftOutAreStillThere() {
    Set<String> all = new TreeSet<>();
    CONSTANTS.values().forEach(all::addAll);
    for (String group : COUNTER_GROUPS.keySet()) {
      assertTrue(all.contains(group), group + " (" + COUNTER_GROUPS.get(group)
          + ") is no longer in the code: drop it from COUNTER_GROUPS");
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
      if (m.lookingAt() && !COUNTER_GROUPS.containsKey(constant)) {
        keys.add(m.group());
      }
    }
    return keys;
  }
}
