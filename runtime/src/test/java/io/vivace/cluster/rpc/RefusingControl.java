package io.vivace.cluster.rpc;

import java.io.IOException;
import org.apache.hadoop.ipc.ProtocolSignature;

/** A session's control protocol for servers whose tests do not stop them. */
final class RefusingControl implements SessionControlProtocol {

  @Override
  public String[] stop(String reason) throws IOException {
    throw new IOException("this test's session is not stopped through its RPC");
  }

  @Override
  public long getProtocolVersion(String protocol, long clientVersion) {
    return versionID;
  }

  @Override
  public ProtocolSignature getProtocolSignature(String protocol, long clientVersion, int clientMethodsHash) {
    return ProtocolSignature.getProtocolSignature(clientMethodsHash, versionID, SessionControlProtocol.class);
  }
}
