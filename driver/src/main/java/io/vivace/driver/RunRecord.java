package io.vivace.driver;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;

/** One run of one workload, as docs/run-record.md describes it; {@link RunRecordJson} writes it. */
record RunRecord(
    String workload,
    Map<String, String> params,
    String framework,
    String defaultFs,
    String dataRoot,
    String workRoot,
    Set<Phase> phases,
    String output,
    Map<String, String> overrides,
    SortedMap<String, String> configuration,
    boolean succeeded,
    Failure failure,
    Long startedMs,
    Long finishedMs,
    PreparedData data,
    Validation validation,
    Map<String, Object> results,
    List<PhaseJob> jobs) {

  static final int VERSION = 1;

  /** Why a run failed: the phase, and a message naming what went wrong. */
  record Failure(Phase phase, String message) {}
}
