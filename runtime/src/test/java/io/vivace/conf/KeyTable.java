package io.vivace.conf;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** docs/configuration-keys.md: the registry as Markdown tables, one per module. */
final class KeyTable {

  private static final Map<String, String> HEADINGS = Map.of(
      "runtime", "Read by the engine (runtime)",
      "workloads", "Parameters of Vivace's workloads (io.vivace.workloads, on any Hadoop framework)",
      "driver", "Set by the bench driver (io.vivace.driver)");

  private KeyTable() {
  }

  static String markdown(KeyRegistry registry) {
    Map<String, List<Key>> byModule = new LinkedHashMap<>();
    for (Key key : registry.keys()) {
      byModule.computeIfAbsent(key.module(), m -> new java.util.ArrayList<>()).add(key);
    }
    StringBuilder out = new StringBuilder();
    out.append("# Vivace's configuration keys\n\n")
        .append("<!-- Generated from runtime/src/main/resources/vivace-default.xml by KeyTableTest;")
        .append(" do not edit here. -->\n\n")
        .append("Every `vivace.*` key, as `runtime/src/main/resources/vivace-default.xml` declares it (its\n")
        .append("header says how to add one). Set them as Hadoop's keys: `-D key=value` on a job's command\n")
        .append("line, or in a `*-site.xml` of the configuration directory.\n");
    for (Map.Entry<String, List<Key>> module : byModule.entrySet()) {
      out.append("\n## ").append(HEADINGS.get(module.getKey())).append("\n\n")
          .append("| key | type | default | meaning |\n")
          .append("| --- | --- | --- | --- |\n");
      for (Key key : module.getValue()) {
        out.append("| `").append(key.name()).append("` | ").append(type(key.type())).append(" | ")
            .append(defaultText(key)).append(" | ").append(cell(key.description())).append(" |\n");
      }
    }
    return out.toString();
  }

  private static String type(KeyType type) {
    if (type.kind() == KeyType.Kind.CHOICE) {
      return "one of " + type.choices().stream().map(c -> "`" + c + "`").collect(Collectors.joining(", "));
    }
    return type.toString();
  }

  private static String defaultText(Key key) {
    if (key.computed() != null) {
      return cell(key.computed().text());
    }
    return key.value() == null ? "none" : "`" + cell(key.value()) + "`";
  }

  private static String cell(String text) {
    return text.replace("|", "\\|");
  }
}
