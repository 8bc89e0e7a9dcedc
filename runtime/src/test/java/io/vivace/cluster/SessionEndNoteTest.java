package io.vivace.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SessionEndNoteTest {

  @Test
  void namesWhyTheSessionEndedForEachJobItKilledAndNoOther() {
    String note = SessionEndNote.of("stopped by alice (vivace session stop)",
        List.of("job_1795790991156_0001", "job_1795790991156_0012"));
    // YARN puts an AM's diagnostics after its own lines
    String diagnostics = "Attempt recovered after RM restart\n" + note;
    assertEquals(Optional.of("stopped by alice (vivace session stop)"),
        SessionEndNote.killedBecause(diagnostics, "job_1795790991156_0012"));
    assertEquals(Optional.of("stopped by alice (vivace session stop)"),
        SessionEndNote.killedBecause(diagnostics, "job_1795790991156_0001"));
    assertEquals(Optional.empty(), SessionEndNote.killedBecause(diagnostics, "job_1795790991156_001"));
    assertEquals(Optional.empty(), SessionEndNote.killedBecause(diagnostics, "job_1795790991156_0002"));
  }

  @Test
  void aSessionThatKilledNothingOrSaidNothingNamesNoJob() {
    assertEquals("session ended: idle for 600 s", SessionEndNote.of("idle for 600 s", List.of()));
    assertEquals(Optional.empty(),
        SessionEndNote.killedBecause(SessionEndNote.of("idle for 600 s", List.of()), "job_1_0001"));
    assertEquals(Optional.empty(), SessionEndNote.killedBecause(null, "job_1_0001"));
    assertEquals(Optional.empty(), SessionEndNote.killedBecause("", "job_1_0001"));
  }
}
