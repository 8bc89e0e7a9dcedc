package io.vivace.cli;

import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Builds the class loader a job jar's program runs in: the jar, then its nested class path. */
final class JobClassLoader {

  private JobClassLoader() {}

  static ClassLoader create(JobJar jar, ClassLoader parent) throws LaunchException {
    List<Path> classPath = new ArrayList<>();
    classPath.add(jar.path());
    try {
      classPath.addAll(NestedClassPath.unpack(jar));
    } catch (IOException e) {
      throw new LaunchException("Error unpacking job jar " + jar.path() + ": " + e.getMessage());
    }
    return new URLClassLoader(toUrls(classPath), parent);
  }

  private static URL[] toUrls(List<Path> paths) {
    URL[] urls = new URL[paths.size()];
    for (int i = 0; i < urls.length; i++) {
      try {
        urls[i] = paths.get(i).toUri().toURL();
      } catch (MalformedURLException e) {
        throw new IllegalArgumentException("Not a class path entry: " + paths.get(i), e);
      }
    }
    return urls;
  }
}
