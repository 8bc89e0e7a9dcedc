package io.vivace.sandbox;

import java.io.File;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;

/**
 * The class path entry (a jar file or a class folder) a class file was found in, as an absolute
 * local path, from the URL a class loader gives for the class file's resource.
 */
final class ClassPathEntries {

  private ClassPathEntries() {
  }

  /**
   * {@code jar:file:/a/b.jar!/x/Y.class} -> {@code /a/b.jar}; {@code file:/dir/x/Y.class} with
   * resource {@code x/Y.class} -> {@code /dir}; null for anything else (the JDK's {@code jrt:},
   * remote URLs).
   */
  static String of(URL url, String resourceName) {
    String protocol = url.getProtocol();
    if ("jar".equals(protocol)) {
      String spec = url.getPath();
      int bang = spec.indexOf("!/");
      if (bang < 0) {
        return null;
      }
      return localPath(spec.substring(0, bang));
    }
    if ("file".equals(protocol)) {
      String path = localPath(url.toString());
      if (path == null) {
        return null;
      }
      String suffix = File.separator + resourceName.replace('/', File.separatorChar);
      return path.endsWith(suffix) ? path.substring(0, path.length() - suffix.length()) : null;
    }
    return null;
  }

  /** The normalised absolute path of a {@code file:} URL; null for other URLs. */
  static String localPath(String fileUrl) {
    if (!fileUrl.startsWith("file:")) {
      return null;
    }
    try {
      return new File(new URI(fileUrl)).toPath().toAbsolutePath().normalize().toString();
    } catch (URISyntaxException | IllegalArgumentException e) {
      return null;
    }
  }

  /** The normalised absolute path of a class path element given as a URL (a class loader's). */
  static String of(URL classPathElement) {
    return localPath(classPathElement.toString());
  }
}
