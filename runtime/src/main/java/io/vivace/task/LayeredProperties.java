package io.vivace.task;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.Reader;
import java.io.Writer;
import java.util.Collection;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * A task's properties over its job's, without copying them: lookups, puts and removes work on the
 * task's own entries in front of the job's (shared, read-only here); any other use first copies the
 * job's entries in ("materialises"), after which this is a plain {@link Properties}.
 */
final class LayeredProperties extends Properties {

  private final Properties base;
  private final Set<Object> removed = new HashSet<>();
  private boolean materialized;

  LayeredProperties(Properties base) {
    this.base = base;
  }

  private synchronized void materialize() {
    if (materialized) {
      return;
    }
    materialized = true;
    for (Map.Entry<Object, Object> e : base.entrySet()) {
      if (!removed.contains(e.getKey()) && !super.containsKey(e.getKey())) {
        super.put(e.getKey(), e.getValue());
      }
    }
    removed.clear();
  }

  // ---- point operations: layered until materialised -----------------------------------------

  @Override
  public synchronized Object get(Object key) {
    if (materialized) {
      return super.get(key);
    }
    Object own = super.get(key);
    if (own != null || removed.contains(key)) {
      return own;
    }
    return base.get(key);
  }

  @Override
  public String getProperty(String key) {
    Object value = get(key);
    return value instanceof String s ? s : null;
  }

  @Override
  public String getProperty(String key, String defaultValue) {
    String value = getProperty(key);
    return value == null ? defaultValue : value;
  }

  @Override
  public Object getOrDefault(Object key, Object defaultValue) {
    Object value = get(key);
    return value == null ? defaultValue : value;
  }

  @Override
  public synchronized boolean containsKey(Object key) {
    return get(key) != null;
  }

  @Override
  public synchronized Object put(Object key, Object value) {
    Object previous = get(key);
    super.put(key, value);
    removed.remove(key);
    return previous;
  }

  @Override
  public synchronized Object setProperty(String key, String value) {
    return put(key, value);
  }

  @Override
  public synchronized Object remove(Object key) {
    Object previous = get(key);
    super.remove(key);
    if (!materialized) {
      removed.add(key);
    }
    return previous;
  }

  // ---- everything else sees the whole set --------------------------------------------------

  @Override
  public synchronized int size() {
    materialize();
    return super.size();
  }

  @Override
  public synchronized boolean isEmpty() {
    materialize();
    return super.isEmpty();
  }

  @Override
  public synchronized Enumeration<Object> keys() {
    materialize();
    return super.keys();
  }

  @Override
  public synchronized Enumeration<Object> elements() {
    materialize();
    return super.elements();
  }

  @Override
  public synchronized boolean contains(Object value) {
    materialize();
    return super.contains(value);
  }

  @Override
  public synchronized boolean containsValue(Object value) {
    materialize();
    return super.containsValue(value);
  }

  @Override
  public synchronized void putAll(Map<?, ?> t) {
    materialize();
    super.putAll(t);
  }

  @Override
  public synchronized void clear() {
    materialize();
    super.clear();
  }

  @Override
  public synchronized String toString() {
    materialize();
    return super.toString();
  }

  @Override
  public synchronized Set<Object> keySet() {
    materialize();
    return super.keySet();
  }

  @Override
  public synchronized Collection<Object> values() {
    materialize();
    return super.values();
  }

  @Override
  public synchronized Set<Map.Entry<Object, Object>> entrySet() {
    materialize();
    return super.entrySet();
  }

  @Override
  public synchronized boolean equals(Object o) {
    materialize();
    return super.equals(o);
  }

  @Override
  public synchronized int hashCode() {
    materialize();
    return super.hashCode();
  }

  @Override
  public synchronized void forEach(BiConsumer<? super Object, ? super Object> action) {
    materialize();
    super.forEach(action);
  }

  @Override
  public synchronized void replaceAll(BiFunction<? super Object, ? super Object, ?> function) {
    materialize();
    super.replaceAll(function);
  }

  @Override
  public synchronized Object putIfAbsent(Object key, Object value) {
    materialize();
    return super.putIfAbsent(key, value);
  }

  @Override
  public synchronized boolean remove(Object key, Object value) {
    materialize();
    return super.remove(key, value);
  }

  @Override
  public synchronized boolean replace(Object key, Object oldValue, Object newValue) {
    materialize();
    return super.replace(key, oldValue, newValue);
  }

  @Override
  public synchronized Object replace(Object key, Object value) {
    materialize();
    return super.replace(key, value);
  }

  @Override
  public synchronized Object computeIfAbsent(Object key, Function<? super Object, ?> f) {
    materialize();
    return super.computeIfAbsent(key, f);
  }

  @Override
  public synchronized Object computeIfPresent(Object key, BiFunction<? super Object, ? super Object, ?> f) {
    materialize();
    return super.computeIfPresent(key, f);
  }

  @Override
  public synchronized Object compute(Object key, BiFunction<? super Object, ? super Object, ?> f) {
    materialize();
    return super.compute(key, f);
  }

  @Override
  public synchronized Object merge(Object key, Object value,
                                   BiFunction<? super Object, ? super Object, ?> f) {
    materialize();
    return super.merge(key, value, f);
  }

  /** A copy is a plain, whole {@link Properties}. */
  @Override
  public synchronized Object clone() {
    materialize();
    Properties copy = new Properties();
    copy.putAll(this);
    return copy;
  }

  @Override
  public Enumeration<?> propertyNames() {
    materialize();
    return super.propertyNames();
  }

  /**
   * The names whose keys and values are strings, without materialising: Hadoop's
   * {@code Configuration.getPropsWithPrefix} asks for them twice in every text-input map
   * ({@code LineRecordReader} through {@code FutureIO.propagateOptions}), which would otherwise copy
   * the job's thousand-odd keys in for each attempt.
   */
  @Override
  public synchronized Set<String> stringPropertyNames() {
    if (materialized) {
      return super.stringPropertyNames();
    }
    Set<String> names = new HashSet<>(Math.max(16, (int) ((base.size() + super.size()) / 0.75f) + 1));
    for (Map.Entry<Object, Object> e : base.entrySet()) {
      if (e.getKey() instanceof String name && e.getValue() instanceof String && !removed.contains(name)
          && !super.containsKey(name)) {
        names.add(name);
      }
    }
    for (Map.Entry<Object, Object> e : super.entrySet()) {
      if (e.getKey() instanceof String name && e.getValue() instanceof String) {
        names.add(name);
      }
    }
    return java.util.Collections.unmodifiableSet(names);
  }

  @Override
  public void list(PrintStream out) {
    materialize();
    super.list(out);
  }

  @Override
  public void list(PrintWriter out) {
    materialize();
    super.list(out);
  }

  @Override
  public synchronized void load(Reader reader) throws IOException {
    materialize();
    super.load(reader);
  }

  @Override
  public synchronized void load(InputStream in) throws IOException {
    materialize();
    super.load(in);
  }

  @Override
  public synchronized void loadFromXML(InputStream in) throws IOException {
    materialize();
    super.loadFromXML(in);
  }

  @Override
  public void store(Writer writer, String comments) throws IOException {
    materialize();
    super.store(writer, comments);
  }

  @Override
  public void store(OutputStream out, String comments) throws IOException {
    materialize();
    super.store(out, comments);
  }

  @Override
  public void storeToXML(OutputStream os, String comment) throws IOException {
    materialize();
    super.storeToXML(os, comment);
  }

  @Override
  public void storeToXML(OutputStream os, String comment, String encoding) throws IOException {
    materialize();
    super.storeToXML(os, comment, encoding);
  }

  @Override
  public void storeToXML(OutputStream os, String comment, java.nio.charset.Charset charset)
      throws IOException {
    materialize();
    super.storeToXML(os, comment, charset);
  }
}
