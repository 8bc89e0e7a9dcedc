package io.vivace.cluster.security;

import java.util.Collection;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.security.token.TokenIdentifier;
import org.apache.hadoop.security.token.TokenSelector;

/** Picks, among a caller's tokens, the session token for the server it connects to. */
public final class SessionTokenSelector implements TokenSelector<SessionTokenIdentifier> {

  @SuppressWarnings("unchecked")
  @Override
  public Token<SessionTokenIdentifier> selectToken(Text service,
                                                   Collection<Token<? extends TokenIdentifier>> tokens) {
    if (service == null) {
      return null;
    }
    for (Token<? extends TokenIdentifier> token : tokens) {
      if (SessionTokenIdentifier.KIND.equals(token.getKind()) && service.equals(token.getService())) {
        return (Token<SessionTokenIdentifier>) token;
      }
    }
    return null;
  }
}
