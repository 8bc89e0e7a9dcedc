package io.vivace.cli;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;

/** A program's {@code public static void main(String[])}, found through the job's class loader. */
final class MainMethod {

  private final ClassLoader loader;
  private final Method main;

  private MainMethod(ClassLoader loader, Method main) {
    this.loader = loader;
    this.main = main;
  }

  static MainMethod find(ClassLoader loader, String className)
      throws LaunchException, MainThrewException {
    Class<?> mainClass;
    try {
      mainClass = Class.forName(className, true, loader);
    } catch (ClassNotFoundException e) {
      throw new LaunchException("java.lang.ClassNotFoundException: " + className);
    } catch (LinkageError e) {
      // A failing static initialiser or a missing dependency of the class: the program's own fault.
      throw new MainThrewException(e);
    }
    Method main;
    try {
      main = mainClass.getMethod("main", String[].class);
    } catch (NoSuchMethodException e) {
      throw new LaunchException(noMain(className));
    }
    if (!Modifier.isStatic(main.getModifiers())) {
      throw new LaunchException(noMain(className));
    }
    // A public main of a package-private class, which the java launcher runs too.
    main.trySetAccessible();
    return new MainMethod(loader, main);
  }

  private static String noMain(String className) {
    return "No public static void main(String[]) in class " + className;
  }

  void invoke(String[] args) throws LaunchException, MainThrewException {
    Thread.currentThread().setContextClassLoader(loader);
    try {
      main.invoke(null, (Object) args);
    } catch (InvocationTargetException e) {
      throw new MainThrewException(e.getCause());
    } catch (IllegalAccessException e) {
      throw new LaunchException(
          "Cannot call main of " + main.getDeclaringClass().getName() + ": " + e.getMessage());
    }
  }
}
