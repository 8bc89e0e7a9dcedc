package io.vivace.cluster;

import java.util.Collection;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a session says to YARN when it ends (its application's final diagnostics): why it ended and
 * which jobs it killed doing so. A client that polls its job only after the session has gone reads
 * it there (the way MapReduce's client falls back to the application report when its AM is gone),
 * so it learns that its job was killed, and why, instead of only that the session cannot be reached.
 */
public final class SessionEndNote {

  private static final String ENDED = "session ended: ";
  private static final String KILLED = "; jobs it killed: ";
  private static final Pattern NOTE = Pattern.compile(Pattern.quote(ENDED) + "(.*?)" + Pattern.quote(KILLED)
      + "([^\\n]*)");

  private SessionEndNote() {
  }

  /** The note of a session that ended for {@code why} and killed {@code killedJobs} (job ids) doing so. */
  public static String of(String why, Collection<String> killedJobs) {
    return killedJobs.isEmpty() ? ENDED + why : ENDED + why + KILLED + String.join(" ", killedJobs);
  }

  /** Why the session ended, when {@code diagnostics} say it killed job {@code jobId}; empty when they do not. */
  public static Optional<String> killedBecause(String diagnostics, String jobId) {
    if (diagnostics == null) {
      return Optional.empty();
    }
    Matcher note = NOTE.matcher(diagnostics);
    while (note.find()) {
      for (String killed : note.group(2).trim().split(" ")) {
        if (killed.equals(jobId)) {
          return Optional.of(note.group(1));
        }
      }
    }
    return Optional.empty();
  }
}
