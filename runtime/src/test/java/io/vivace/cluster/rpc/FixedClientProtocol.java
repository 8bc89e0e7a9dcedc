package io.vivace.cluster.rpc;

import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.hadoop.ipc.ProtocolSignature;
import org.apache.hadoop.ipc.Server;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.protocol.ClientProtocol;
import org.apache.hadoop.security.AccessControlException;

/**
 * A ClientProtocol for authentication tests: getNewJobID returns a fixed id, killJob refuses with
 * an AccessControlException of its own, every other call fails; every call is recorded with the
 * user the RPC server authenticated.
 */
final class FixedClientProtocol {

  static final JobID JOB = new JobID("session", 1);

  final List<String> calls = new CopyOnWriteArrayList<>();
  final ClientProtocol protocol = (ClientProtocol) Proxy.newProxyInstance(ClientProtocol.class.getClassLoader(),
      new Class<?>[] {ClientProtocol.class}, (proxy, method, args) -> {
        switch (method.getName()) {
          case "getProtocolVersion":
            return ClientProtocol.versionID;
          case "getProtocolSignature":
            return new ProtocolSignature(ClientProtocol.versionID, null);
          default:
            calls.add(method.getName() + " by " + Server.getRemoteUser().getUserName() + " ("
                + Server.getRemoteUser().getAuthenticationMethod() + ")");
            if (method.getName().equals("getNewJobID")) {
              return JOB;
            }
            if (method.getName().equals("killJob")) {
              throw new AccessControlException("the session's own refusal to kill " + args[0]);
            }
            throw new UnsupportedOperationException(method.getName());
        }
      });
}
