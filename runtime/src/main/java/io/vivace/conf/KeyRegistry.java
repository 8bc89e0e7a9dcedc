package io.vivace.conf;

import java.io.IOException;
import java.io.InputStream;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

/** The keys declared in vivace-default.xml (see its header for the format), in file order. */
public final class KeyRegistry {

  public static final String RESOURCE = "vivace-default.xml";
  public static final Set<String> MODULES = Set.of("runtime", "workloads", "driver");

  private static final Set<String> ELEMENTS =
      Set.of("name", "value", "type", "computed", "module", "description");

  private final Map<String, Key> keys;

  private KeyRegistry(Map<String, Key> keys) {
    this.keys = Collections.unmodifiableMap(keys);
  }

  /** The registry inside the runtime jar, read once. */
  public static KeyRegistry get() {
    return Bundled.REGISTRY;
  }

  /** The key's declaration; an undeclared key is an error naming it. */
  public Key key(String name) {
    Key key = keys.get(name);
    if (key == null) {
      throw new IllegalArgumentException(name + " is not declared in " + RESOURCE);
    }
    return key;
  }

  public boolean declares(String name) {
    return keys.containsKey(name);
  }

  public Collection<Key> keys() {
    return keys.values();
  }

  /** Reads a registry; a malformed one is an IOException naming {@code source} and the key. */
  public static KeyRegistry parse(InputStream in, String source) throws IOException {
    Element root;
    try {
      DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
      factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      root = factory.newDocumentBuilder().parse(in).getDocumentElement();
    } catch (ParserConfigurationException | SAXException e) {
      throw new IOException(source + ": not well-formed XML: " + e.getMessage(), e);
    }
    if (!root.getTagName().equals("configuration")) {
      throw new IOException(source + ": the root element is <" + root.getTagName()
          + ">, not <configuration>");
    }
    Map<String, Key> keys = new LinkedHashMap<>();
    int position = 0;
    for (Node node = root.getFirstChild(); node != null; node = node.getNextSibling()) {
      if (node instanceof Element property) {
        position++;
        if (!property.getTagName().equals("property")) {
          throw new IOException(source + ": <" + property.getTagName() + "> where a <property> belongs");
        }
        Key key = property(property, source, position);
        if (keys.put(key.name(), key) != null) {
          throw new IOException(source + ": " + key.name() + " is declared twice");
        }
      }
    }
    return new KeyRegistry(keys);
  }

  private static Key property(Element property, String source, int position) throws IOException {
    Map<String, String> fields = new LinkedHashMap<>();
    String name = null;
    for (Node node = property.getFirstChild(); node != null; node = node.getNextSibling()) {
      if (node instanceof Element field) {
        String text = field.getTextContent().trim().replaceAll("\\s+", " ");
        if (field.getTagName().equals("name")) {
          name = text;
        }
        if (fields.put(field.getTagName(), text) != null) {
          throw new IOException(where(source, position, name) + "<" + field.getTagName() + "> given twice");
        }
      }
    }
    String at = where(source, position, name);
    for (String field : fields.keySet()) {
      if (!ELEMENTS.contains(field)) {
        throw new IOException(at + "unknown element <" + field + "> (expected one of " + ELEMENTS + ")");
      }
    }
    if (name == null || !name.matches("vivace(\\.[a-z0-9][a-z0-9-]*)+")) {
      throw new IOException(at + "<name> must be vivace. followed by dot-separated lower-case words");
    }
    String description = required(fields, "description", at);
    String module = required(fields, "module", at);
    if (!MODULES.contains(module)) {
      throw new IOException(at + "unknown module '" + module + "' (expected one of " + MODULES + ")");
    }
    KeyType type;
    try {
      type = KeyType.parse(required(fields, "type", at));
    } catch (IllegalArgumentException e) {
      throw new IOException(at + e.getMessage(), e);
    }
    String value = fields.get("value");
    ComputedDefault computed = null;
    if (fields.containsKey("computed")) {
      if (value != null) {
        throw new IOException(at + "give either <value> or <computed>, not both");
      }
      try {
        computed = ComputedDefault.named(fields.get("computed"));
      } catch (IllegalArgumentException e) {
        throw new IOException(at + e.getMessage(), e);
      }
      if (computed.kind() != type.kind()) {
        throw new IOException(at + "the computed default " + computed.xmlName() + " is "
            + computed.kind().name().toLowerCase() + ", the key " + type);
      }
    } else if (value != null && type.problem(value) != null) {
      throw new IOException(at + "the default '" + value + "' is not " + type.problem(value));
    }
    return new Key(name, type, value, computed, module, description);
  }

  private static String required(Map<String, String> fields, String field, String at) throws IOException {
    String text = fields.get(field);
    if (text == null || text.isEmpty()) {
      throw new IOException(at + "<" + field + "> is missing");
    }
    return text;
  }

  private static String where(String source, int position, String name) {
    return source + ": " + (name != null ? name : "property " + position) + ": ";
  }

  /** Loaded on first use, so that a class reading no key never parses the file. */
  private static final class Bundled {
    static final KeyRegistry REGISTRY = load();

    private static KeyRegistry load() {
      try (InputStream in = KeyRegistry.class.getClassLoader().getResourceAsStream(RESOURCE)) {
        if (in == null) {
          throw new IllegalStateException(RESOURCE + " is missing from the class path");
        }
        return parse(in, RESOURCE);
      } catch (IOException e) {
        throw new IllegalStateException(e.getMessage(), e);
      }
    }
  }
}
