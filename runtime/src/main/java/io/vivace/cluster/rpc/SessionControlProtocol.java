package io.vivace.cluster.rpc;

import java.io.IOException;
import org.apache.hadoop.ipc.VersionedProtocol;

/**
 * How the session's owner stops it ({@code ./vivace session stop}) so that it ends cleanly: its
 * running jobs killed and aborted through their committers, their clients told why, its containers
 * given back, its files removed.
 */
public interface SessionControlProtocol extends VersionedProtocol {

  long versionID = 1L;

  /**
   * Asks the session to end, for {@code reason}; returns the ids of the jobs it was running (they
   * are killed). The session ends shortly after the call returns.
   */
  String[] stop(String reason) throws IOException;
}
