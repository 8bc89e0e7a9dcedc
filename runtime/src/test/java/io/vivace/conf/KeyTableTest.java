package io.vivace.conf;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The committed documentation table is the one vivace-default.xml gives. */
class KeyTableTest {

  @Test
  void docsTableIsGeneratedFromTheRegistry() throws Exception {
    // surefire runs in the module's directory
    Path committed = Path.of("..", "docs", "configuration-keys.md").toAbsolutePath().normalize();
    Path generated = Path.of("target", "configuration-keys.md").toAbsolutePath();
    String table = KeyTable.markdown(KeyRegistry.get());
    Files.createDirectories(generated.getParent());
    Files.writeString(generated, table, StandardCharsets.UTF_8);
    String current = Files.isRegularFile(committed) ? Files.readString(committed, StandardCharsets.UTF_8) : "";
    assertTrue(table.equals(current), committed + " differs from what vivace-default.xml gives;"
        + " regenerate it: cp " + generated + " " + committed);
  }
}
