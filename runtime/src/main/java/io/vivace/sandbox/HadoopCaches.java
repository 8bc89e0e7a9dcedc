package io.vivace.sandbox;

import java.lang.reflect.Field;
import java.util.Map;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hadoop's static caches that hold classes strongly (constructors, comparators, factories, names,
 * codec pools, file system statistics). A job's classes in them would keep its class loaders, and
 * all their classes, for the life of the JVM; {@link #forget} drops them when the job ends.
 */
final class HadoopCaches {

  private static final Logger LOG = LoggerFactory.getLogger(HadoopCaches.class);

  /** A static map field, and the lock its owner takes around it (null: a concurrent map). */
  private record Cache(Class<?> owner, String field, Object lock) {
  }

  /** Marks a map guarded by its own monitor. */
  private static final Object SELF_LOCK = new Object();

  private static final Cache[] CACHES = {
      new Cache(org.apache.hadoop.util.ReflectionUtils.class, "CONSTRUCTOR_CACHE", null),
      new Cache(org.apache.hadoop.io.WritableComparator.class, "comparators", null),
      new Cache(org.apache.hadoop.io.WritableFactories.class, "CLASS_TO_FACTORY", null),
      new Cache(org.apache.hadoop.io.WritableName.class, "NAME_TO_CLASS", org.apache.hadoop.io.WritableName.class),
      new Cache(org.apache.hadoop.io.WritableName.class, "CLASS_TO_NAME", org.apache.hadoop.io.WritableName.class),
      new Cache(org.apache.hadoop.io.compress.CodecPool.class, "compressorPool", SELF_LOCK),
      new Cache(org.apache.hadoop.io.compress.CodecPool.class, "decompressorPool", SELF_LOCK),
      new Cache(org.apache.hadoop.fs.FileSystem.class, "statisticsTable", org.apache.hadoop.fs.FileSystem.class),
  };

  private HadoopCaches() {
  }

  /** Removes every entry whose key or value is a class that {@code ownedBy} accepts (or an instance of one). */
  static void forget(Predicate<ClassLoader> ownedBy) {
    for (Cache cache : CACHES) {
      Map<?, ?> map = map(cache);
      if (map == null) {
        continue;
      }
      Object lock = cache.lock() == SELF_LOCK ? map : cache.lock();
      if (lock == null) {
        map.entrySet().removeIf(e -> owned(e.getKey(), ownedBy) || owned(e.getValue(), ownedBy));
      } else {
        synchronized (lock) {
          map.entrySet().removeIf(e -> owned(e.getKey(), ownedBy) || owned(e.getValue(), ownedBy));
        }
      }
    }
  }

  private static boolean owned(Object o, Predicate<ClassLoader> ownedBy) {
    if (o == null) {
      return false;
    }
    Class<?> c = o instanceof Class<?> cls ? cls : o.getClass();
    ClassLoader loader = c.getClassLoader();
    return loader != null && ownedBy.test(loader);
  }

  private static Map<?, ?> map(Cache cache) {
    try {
      Field f = cache.owner().getDeclaredField(cache.field());
      f.setAccessible(true);
      return (Map<?, ?>) f.get(null);
    } catch (ReflectiveOperationException | RuntimeException e) {
      LOG.debug("cannot reach " + cache.owner().getName() + "." + cache.field() + ": " + e);
      return null;
    }
  }
}
