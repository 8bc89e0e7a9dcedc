package io.vivace.cluster.session;

import io.vivace.cluster.rpc.AttemptStatus;
import io.vivace.scheduler.AttemptHandle;

/** An attempt running on an executor, as its last status said; stopping it is a message to the executor. */
final class RemoteAttempt implements AttemptHandle {

  private final Dispatcher dispatcher;
  private final String attemptId;
  private volatile float progress;
  private volatile String status = "";
  private volatile long activity;

  RemoteAttempt(Dispatcher dispatcher, String attemptId) {
    this.dispatcher = dispatcher;
    this.attemptId = attemptId;
  }

  void update(AttemptStatus latest) {
    progress = latest.progress();
    status = latest.status();
    activity = latest.activity();
  }

  @Override
  public float progress() {
    return progress;
  }

  @Override
  public String status() {
    return status;
  }

  @Override
  public long activity() {
    return activity;
  }

  @Override
  public void stop() {
    dispatcher.stop(attemptId);
  }
}
