package io.vivace.cluster.rpc;

import io.vivace.cluster.security.SessionTokenSelector;
import java.lang.annotation.Annotation;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.KerberosInfo;
import org.apache.hadoop.security.SecurityInfo;
import org.apache.hadoop.security.token.TokenIdentifier;
import org.apache.hadoop.security.token.TokenInfo;
import org.apache.hadoop.security.token.TokenSelector;

/**
 * Tells Hadoop's RPC client which token authenticates to a session: the session's token
 * ({@link SessionTokenSelector}) for each of its protocols. Registered in
 * {@code META-INF/services/org.apache.hadoop.security.SecurityInfo}.
 */
public final class SessionSecurityInfo extends SecurityInfo {

  private static final TokenInfo SESSION_TOKEN = new TokenInfo() {
    @Override
    public Class<? extends TokenSelector<? extends TokenIdentifier>> value() {
      return SessionTokenSelector.class;
    }

    @Override
    public Class<? extends Annotation> annotationType() {
      return TokenInfo.class;
    }
  };

  @Override
  public KerberosInfo getKerberosInfo(Class<?> protocol, Configuration conf) {
    return null;
  }

  @Override
  public TokenInfo getTokenInfo(Class<?> protocol, Configuration conf) {
    return protocol == ExecutorProtocol.class || protocol == SessionClientProtocol.class
        || protocol == SessionControlProtocol.class ? SESSION_TOKEN : null;
  }
}
