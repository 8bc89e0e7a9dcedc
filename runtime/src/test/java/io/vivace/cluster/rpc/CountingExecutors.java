package io.vivace.cluster.rpc;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.hadoop.ipc.ProtocolSignature;
import org.apache.hadoop.ipc.Server;

/** An ExecutorProtocol that records who called what (as the RPC server authenticated them). */
final class CountingExecutors implements ExecutorProtocol {

  final List<String> calls = new CopyOnWriteArrayList<>();

  @Override
  public int register(ExecutorInfo info) {
    record("register " + info.containerId());
    return 7;
  }

  @Override
  public Assignments nextWork(int executorId, long waitMillis, StatusBatch running) {
    record("nextWork");
    return new Assignments();
  }

  @Override
  public boolean mayCommit(int executorId, String attemptId) {
    record("mayCommit");
    return true;
  }

  @Override
  public io.vivace.submit.JobDescription describedJob(int executorId, String jobId) {
    record("describedJob");
    return new io.vivace.submit.JobDescription();
  }

  @Override
  public void attemptsDone(int executorId, AttemptResults results) {
    record("attemptsDone");
  }

  private void record(String call) {
    calls.add(call + " by " + Server.getRemoteUser().getUserName() + " (" + Server.getRemoteUser().getAuthenticationMethod() + ")");
  }

  @Override
  public long getProtocolVersion(String protocol, long clientVersion) {
    return versionID;
  }

  @Override
  public ProtocolSignature getProtocolSignature(String protocol, long clientVersion, int clientMethodsHash)
      throws IOException {
    return ProtocolSignature.getProtocolSignature(this, protocol, clientVersion, clientMethodsHash);
  }
}
