package io.vivace.scheduler;

import io.vivace.segment.SegmentCodec;
import io.vivace.submit.Submission;

/** Makes the {@link JobExecutor} of each job: the seam between the scheduler and where attempts run. */
public interface AttemptExecutor {

  /** The executor of {@code job}, whose map output is stored with {@code mapOutputCodec}. */
  JobExecutor forJob(JobRun job, Submission submission, SegmentCodec mapOutputCodec);
}
