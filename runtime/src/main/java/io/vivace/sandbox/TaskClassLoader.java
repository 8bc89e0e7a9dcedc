package io.vivace.sandbox;

import java.security.CodeSource;
import java.security.ProtectionDomain;
import java.security.cert.Certificate;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The class loader of one slot of one job (or of the job's own steps): it defines the job's own
 * classes ({@link JobClassPath}) itself, so their static fields belong to it alone, and takes every
 * other class (the JDK's, Hadoop's, Vivace's) and every resource from the job's class loader, so
 * those stay shared. What Hadoop gives a task by giving it a JVM of its own, for the classes where it
 * matters.
 */
public final class TaskClassLoader extends ClassLoader {

  static {
    registerAsParallelCapable();
  }

  private final JobClassPath classPath;
  private final Map<java.net.URL, ProtectionDomain> domains = new ConcurrentHashMap<>();

  TaskClassLoader(String name, JobClassPath classPath) {
    super(name, classPath.source());
    this.classPath = classPath;
  }

  @Override
  protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
    synchronized (getClassLoadingLock(name)) {
      Class<?> c = findLoadedClass(name);
      if (c == null) {
        Optional<JobClassPath.JobClass> own = name.startsWith("java.") ? Optional.empty() : classPath.find(name);
        c = own.isPresent() ? define(name, own.get()) : getParent().loadClass(name);
      }
      if (resolve) {
        resolveClass(c);
      }
      return c;
    }
  }

  private Class<?> define(String name, JobClassPath.JobClass own) {
    int dot = name.lastIndexOf('.');
    if (dot > 0) {
      String pkg = name.substring(0, dot);
      if (getDefinedPackage(pkg) == null) {
        try {
          definePackage(pkg, null, null, null, null, null, null, null);
        } catch (IllegalArgumentException definedMeanwhile) {
          // another thread of this parallel-capable loader defined it
        }
      }
    }
    ProtectionDomain domain = domains.computeIfAbsent(own.entry(),
        url -> new ProtectionDomain(new CodeSource(url, (Certificate[]) null), null, this, null));
    return defineClass(name, own.bytes(), 0, own.bytes().length, domain);
  }
}
