package io.vivace.cluster.session;

import io.vivace.cluster.rpc.SessionControlProtocol;
import io.vivace.scheduler.JobRun;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.ipc.ProtocolSignature;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the session's master checks every tick ({@link #tick}): attempts past their task timeout,
 * attempts asked to stop whose executors never answered (given up on after the grace), executors
 * that stopped asking for work (lost, their containers stopped), the executor pool's size, jobs whose
 * work waits without a slot (their clients are told what for), and whether the session ends: idle
 * too long, its ResourceManager lost, or stopped by its owner ({@link SessionControlProtocol}).
 */
final class SessionMonitor implements SessionControlProtocol {

  private static final Logger LOG = LoggerFactory.getLogger(SessionMonitor.class);
  private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss");

  /** The monitor's timeouts, in nanoseconds. */
  record Timeouts(long idle, long silence, long stopGrace, long waitReport) {
  }

  private final SessionJobs jobs;
  private final Dispatcher dispatcher;
  private final ExecutorContainers containers;
  private final Timeouts timeouts;
  private final Set<JobRun> toldWaiting = new HashSet<>();
  private volatile String stopReason;
  /** The wall clock and the monotonic one at the same moment, to tell a moment by the wall clock. */
  private final long clockMillis = System.currentTimeMillis();
  private final long clockNanos = System.nanoTime();

  SessionMonitor(SessionJobs jobs, Dispatcher dispatcher, ExecutorContainers containers, Timeouts timeouts) {
    this.jobs = jobs;
    this.dispatcher = dispatcher;
    this.containers = containers;
    this.timeouts = timeouts;
  }

  /** One round of checks at {@code now} (nanos); returns why the session ends, or null while it goes on. */
  String tick(long now) {
    jobs.watch(now);
    dispatcher.giveUpOverdue(now, timeouts.stopGrace());
    for (int executor : dispatcher.silentExecutors(now, timeouts.silence())) {
      String container = dispatcher.containerOf(executor);
      dispatcher.executorLost(executor, "it asked for no work for " + timeouts.silence() / 1_000_000_000L + " s");
      if (container != null) {
        containers.stopContainer(ContainerId.fromString(container)); // in case it still runs
      }
    }
    containers.balance(now);
    tellWaitingJobs(now);
    if (stopReason != null) {
      return stopReason;
    }
    String lost = containers.resourceManagerLost();
    if (lost != null) {
      return lost;
    }
    if (jobs.idleFor(now, timeouts.idle())) {
      return "idle for " + timeouts.idle() / 1_000_000_000L + " s (vivace.session.idle.timeout.ms)";
    }
    return null;
  }

  /** Jobs whose queued work has waited without any attempt running are told what for; the others, nothing. */
  private void tellWaitingJobs(long now) {
    List<Dispatcher.Waiting> waiting = dispatcher.waitingJobs(now, timeouts.waitReport());
    Set<JobRun> still = new HashSet<>();
    String why = waiting.isEmpty() ? null : containers.whyWaiting(now);
    for (Dispatcher.Waiting w : waiting) {
      String since = LocalTime.ofInstant(Instant.ofEpochMilli(clockMillis + (w.sinceNanos() - clockNanos) / 1_000_000),
          ZoneId.systemDefault()).format(CLOCK);
      String info = w.queued() + " tasks wait for a slot since " + since + ": " + why;
      still.add(w.job());
      if (toldWaiting.add(w.job())) {
        LOG.info("Job " + w.job().id() + " waits: " + info);
      }
      w.job().waitingFor(info);
    }
    for (JobRun job : new ArrayList<>(toldWaiting)) {
      if (!still.contains(job)) {
        toldWaiting.remove(job);
        job.waitingFor("");
      }
    }
  }

  @Override
  public String[] stop(String reason) {
    List<String> running = new ArrayList<>();
    for (JobRun job : jobs.jobs()) {
      if (!job.isComplete()) {
        running.add(job.id().toString());
      }
    }
    LOG.info("The session is asked to end: " + reason + "; running jobs: " + running);
    stopReason = reason;
    return running.toArray(new String[0]);
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
