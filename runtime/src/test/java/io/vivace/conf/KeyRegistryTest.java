package io.vivace.conf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** vivace-default.xml as the runtime reads it, and the mistakes it refuses in such a file. */
class KeyRegistryTest {

  @Test
  void theBundledRegistryDeclaresTheEngineKeysTyped() {
    KeyRegistry registry = KeyRegistry.get();
    Key slots = registry.key("vivace.slots");
    assertEquals(KeyType.Kind.INT, slots.type().kind());
    assertEquals(ComputedDefault.CORES, slots.computed());
    assertEquals("runtime", slots.module());
    Key badRecords = registry.key("vivace.workloads.bad-records");
    assertEquals(List.of("fail", "skip"), badRecords.type().choices());
    assertEquals("fail", badRecords.value());
    assertTrue(registry.keys().stream().allMatch(k -> k.name().startsWith("vivace.")));
  }

  @Test
  void anUndeclaredKeyIsAnErrorNamingIt() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> KeyRegistry.get().key("vivace.slotz"));
    assertEquals("vivace.slotz is not declared in vivace-default.xml", e.getMessage());
  }

  @Test
  void aWellFormedFileParsesInOrderWithWhitespaceFolded() throws IOException {
    KeyRegistry registry = parse(property("vivace.b", "<value>7</value><type>int</type>")
        + property("vivace.a", "<type>string</type>"));
    assertEquals(List.of("vivace.b", "vivace.a"), registry.keys().stream().map(Key::name).toList());
    assertEquals("7", registry.key("vivace.b").value());
    assertEquals(null, registry.key("vivace.a").value(), "no default");
    assertEquals("what it does, on two lines", registry.key("vivace.a").description());
  }

  @ParameterizedTest
  @CsvSource(delimiter = ';', quoteCharacter = '"', value = {
      "<value>many</value><type>int</type>; t.xml: vivace.x: the default 'many' is not a whole number (int)",
      "<value>yes</value><type>boolean</type>; t.xml: vivace.x: the default 'yes' is not true or false",
      "<value>1</value><type>integer</type>; t.xml: vivace.x: unknown type 'integer'",
      "<type>fail</type><value>fail</value><type>string</type>; t.xml: vivace.x: <type> given twice",
      "<value>1</value>; t.xml: vivace.x: <type> is missing",
      "<type>int</type><computed>cores</computed><value>1</value>; t.xml: vivace.x: give either <value> or <computed>",
      "<type>long</type><computed>cores</computed>; t.xml: vivace.x: the computed default cores is int, the key long",
      "<type>int</type><computed>threads</computed>; t.xml: vivace.x: unknown computed default 'threads'",
      "<type>int</type><valeu>1</valeu>; t.xml: vivace.x: unknown element <valeu>",
      "<type>a|B</type>; t.xml: vivace.x: a choice type lists two or more lower-case words",
  })
  void aMalformedPropertyIsRefusedNamingTheFileAndKey(String fields, String message) {
    IOException e = assertThrows(IOException.class, () -> parse(property("vivace.x", fields)));
    assertTrue(e.getMessage().startsWith(message), e.getMessage());
  }

  @Test
  void aKeyDeclaredTwiceOrOutsideTheNamespaceIsRefused() {
    String twice = property("vivace.x", "<type>int</type>").repeat(2);
    assertEquals("t.xml: vivace.x is declared twice",
        assertThrows(IOException.class, () -> parse(twice)).getMessage());
    IOException foreign = assertThrows(IOException.class,
        () -> parse(property("mapreduce.x", "<type>int</type>")));
    assertTrue(foreign.getMessage().startsWith("t.xml: mapreduce.x: <name> must be vivace."),
        foreign.getMessage());
  }

  @Test
  void aModuleOutsideTheProjectIsRefused() {
    String text = "<property><name>vivace.x</name><type>int</type><module>spark</module>"
        + "<description>d</description></property>";
    IOException e = assertThrows(IOException.class, () -> parse(text));
    assertTrue(e.getMessage().startsWith("t.xml: vivace.x: unknown module 'spark'"), e.getMessage());
  }

  private static String property(String name, String fields) {
    return "<property><name>" + name + "</name>" + fields + "<module>runtime</module>"
        + "<description>what it does,\n   on two lines</description></property>\n";
  }

  private static KeyRegistry parse(String properties) throws IOException {
    String xml = "<?xml version=\"1.0\"?>\n<configuration>\n" + properties + "</configuration>\n";
    return KeyRegistry.parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)), "t.xml");
  }
}
