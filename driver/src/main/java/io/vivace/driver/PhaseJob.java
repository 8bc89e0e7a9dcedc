package io.vivace.driver;

/** A recorded job and the phase it ran in. */
record PhaseJob(Phase phase, RecordedJob job) {}
