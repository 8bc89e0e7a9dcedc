package org.apache.hadoop.ipc;

/** The SASL quality of protection a proxy's connection negotiated (Hadoop keeps it package-private). */
public final class NegotiatedQop {

  private NegotiatedQop() {
  }

  public static String of(Object proxy) {
    return RPC.getConnectionIdForProxy(proxy).getSaslQop();
  }
}
