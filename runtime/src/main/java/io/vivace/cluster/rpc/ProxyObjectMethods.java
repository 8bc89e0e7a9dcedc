package io.vivace.cluster.rpc;

import java.lang.reflect.Method;

/**
 * What a session protocol's {@link java.lang.reflect.Proxy} answers for {@link Object}'s own methods
 * (identity equality and hash, a description), so that its handler passes only the protocol's.
 */
public final class ProxyObjectMethods {

  private ProxyObjectMethods() {
  }

  /** Whether {@code method} is one of {@link Object}'s, to be answered by {@link #answer}. */
  public static boolean isObjectMethod(Method method) {
    return method.getDeclaringClass() == Object.class;
  }

  /** The answer to an {@link Object} method called on {@code proxy}, described as {@code description}. */
  public static Object answer(Object proxy, Method method, Object[] args, String description) {
    return switch (method.getName()) {
      case "equals" -> proxy == args[0];
      case "hashCode" -> System.identityHashCode(proxy);
      default -> description;
    };
  }
}
