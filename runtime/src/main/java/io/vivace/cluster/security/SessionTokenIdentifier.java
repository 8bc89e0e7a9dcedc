package io.vivace.cluster.security;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.TokenIdentifier;

/**
 * The identifier of a token that authenticates a caller to a session's RPC server (kind
 * {@code VIVACE_SESSION}): the session (application) id and the user the caller acts as. Its
 * password is {@link SessionKeys#tokenPassword} of these bytes, which only holders of the session's
 * secret can compute.
 */
public final class SessionTokenIdentifier extends TokenIdentifier {

  public static final Text KIND = new Text("VIVACE_SESSION");

  private static final byte VERSION = 1;

  private String sessionId = "";
  private String user = "";

  /** For deserialization. */
  public SessionTokenIdentifier() {
  }

  public SessionTokenIdentifier(String sessionId, String user) {
    this.sessionId = sessionId;
    this.user = user;
  }

  public String sessionId() {
    return sessionId;
  }

  public String user() {
    return user;
  }

  @Override
  public Text getKind() {
    return KIND;
  }

  @Override
  public UserGroupInformation getUser() {
    return user.isEmpty() ? null : UserGroupInformation.createRemoteUser(user);
  }

  @Override
  public void write(DataOutput out) throws IOException {
    out.writeByte(VERSION);
    Text.writeString(out, sessionId);
    Text.writeString(out, user);
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    byte version = in.readByte();
    if (version != VERSION) {
      throw new IOException("Vivace session token of unknown version " + version + " (this Vivace reads "
          + VERSION + "): client and session run different Vivace versions");
    }
    sessionId = Text.readString(in);
    user = Text.readString(in);
  }

  @Override
  public String toString() {
    return KIND + " for session " + sessionId + " as user " + user;
  }
}
