package io.vivace.realcluster;

import java.io.IOException;

/** Network namespaces cannot be made here (not root, or a tool missing): {@code --no-netns} can. */
final class NamespacesUnavailableException extends IOException {
  NamespacesUnavailableException(String reason) {
    super(reason);
  }
}
