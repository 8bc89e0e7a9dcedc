package io.vivace.task;

/** Hadoop's output file names for old-API tasks ({@code part-00000}). */
final class TaskNames {

  private TaskNames() {
  }

  static String oldApiOutputName(int partition) {
    return String.format("part-%05d", partition);
  }
}
