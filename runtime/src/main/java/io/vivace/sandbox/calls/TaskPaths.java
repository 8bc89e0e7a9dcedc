package io.vivace.sandbox.calls;

import io.vivace.sandbox.TaskScope;
import java.io.File;
import java.io.FileFilter;
import java.io.FilenameFilter;
import java.lang.invoke.CallSite;
import java.lang.invoke.ConstantCallSite;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.file.FileSystems;
import java.nio.file.Path;

/**
 * Relative paths of task code resolved in the task's working directory. A relative {@code File}
 * or {@code Path} stays relative (its {@code getPath()}, {@code isAbsolute()} are unchanged); the
 * calls that reach the file system resolve it: constructors of streams take a resolved argument,
 * and the file system methods of {@code File}, {@code Files}, {@code Path} and {@code FileChannel}
 * are linked, through {@link #bootstrap}, to the JDK's own with their path arguments resolved.
 */
public final class TaskPaths {

  /** {@code kind} of {@link #bootstrap}: how the replaced call invoked its method. */
  public static final int STATIC = 0;
  public static final int VIRTUAL = 1;
  public static final int INTERFACE = 2;

  private static final MethodHandle RESOLVE_FILE;
  private static final MethodHandle RESOLVE_PATH;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      RESOLVE_FILE = lookup.findStatic(TaskPaths.class, "resolve", MethodType.methodType(File.class, File.class));
      RESOLVE_PATH = lookup.findStatic(TaskPaths.class, "resolve", MethodType.methodType(Path.class, Path.class));
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private TaskPaths() {
  }

  public static String resolve(String path) {
    if (path == null) {
      return null;
    }
    TaskScope scope = TaskScope.current();
    if (scope == null || new File(path).isAbsolute()) {
      return path;
    }
    return new File(scope.workDir(), path).getPath();
  }

  public static File resolve(File file) {
    if (file == null || file.isAbsolute()) {
      return file;
    }
    TaskScope scope = TaskScope.current();
    return scope == null ? file : new File(scope.workDir(), file.getPath());
  }

  public static Path resolve(Path path) {
    if (path == null || path.isAbsolute() || path.getFileSystem() != FileSystems.getDefault()) {
      return path;
    }
    TaskScope scope = TaskScope.current();
    return scope == null ? path : scope.workDir().toPath().resolve(path);
  }

  /**
   * Links a rewritten call of {@code owner.name} to the JDK's method with every {@code File} and
   * {@code Path} argument (the receiver included) resolved; {@code File.listFiles} to the methods
   * below, whose results keep the caller's relative parent.
   */
  public static CallSite bootstrap(MethodHandles.Lookup caller, String name, MethodType type, Class<?> owner,
                                   int kind) throws ReflectiveOperationException {
    if (owner == File.class && name.equals("listFiles")) {
      return new ConstantCallSite(MethodHandles.lookup().findStatic(TaskPaths.class, name, type));
    }
    MethodHandles.Lookup jdk = MethodHandles.publicLookup();
    MethodHandle target = kind == STATIC
        ? jdk.findStatic(owner, name, type)
        : jdk.findVirtual(owner, name, type.dropParameterTypes(0, 1));
    // a link's target is a path relative to the link's folder, not to the working directory
    int filtered = owner == java.nio.file.Files.class && name.equals("createSymbolicLink") ? 1
        : type.parameterCount();
    for (int i = 0; i < filtered; i++) {
      Class<?> p = type.parameterType(i);
      if (p == File.class) {
        target = MethodHandles.filterArguments(target, i, RESOLVE_FILE);
      } else if (p == Path.class) {
        target = MethodHandles.filterArguments(target, i, RESOLVE_PATH);
      }
    }
    return new ConstantCallSite(target.asType(type));
  }

  public static File[] listFiles(File dir) {
    return relativeTo(dir, resolve(dir).listFiles());
  }

  public static File[] listFiles(File dir, FileFilter filter) {
    return relativeTo(dir, resolve(dir).listFiles(filter));
  }

  public static File[] listFiles(File dir, FilenameFilter filter) {
    return relativeTo(dir, resolve(dir).listFiles(filter));
  }

  /** Children named as the JDK names them: the caller's (maybe relative) folder, then the name. */
  private static File[] relativeTo(File dir, File[] children) {
    if (children == null || dir.isAbsolute()) {
      return children;
    }
    for (int i = 0; i < children.length; i++) {
      children[i] = new File(dir, children[i].getName());
    }
    return children;
  }
}
