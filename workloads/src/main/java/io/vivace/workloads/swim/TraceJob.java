package io.vivace.workloads.swim;

/**
 * One job of a SWIM trace: its name, submit time and gap since the previous job (seconds), and
 * its input, shuffle and output bytes as the production cluster saw them; {@code line} is its
 * 1-based line number in the trace file.
 */
public record TraceJob(int line, String name, long submitS, long gapS, long inputBytes,
    long shuffleBytes, long outputBytes) {}
