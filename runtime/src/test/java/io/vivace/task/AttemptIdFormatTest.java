package io.vivace.task;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.hadoop.mapred.JobID;
import org.apache.hadoop.mapred.TaskAttemptID;
import org.apache.hadoop.mapred.TaskID;
import org.apache.hadoop.mapreduce.TaskType;
import org.junit.jupiter.api.Test;

/** Attempt ids formatted with the job's part cut once are the text Hadoop's toString() gives. */
class AttemptIdFormatTest {

  @Test
  void attemptIdTextIsWhatHadoopFormats() {
    for (JobID job : new JobID[] {new JobID("1795322851178", 1), new JobID("local42", 123456)}) {
      AttemptIdFormat format = new AttemptIdFormat(job);
      for (TaskType type : TaskType.values()) {
        for (int index : new int[] {0, 7, 99_999, 999_999, 1_234_567}) {
          for (int attempt : new int[] {0, 3, 12}) {
            TaskAttemptID id = new TaskAttemptID(new TaskID(job, type, index), attempt);
            assertEquals(id.toString(), format.format(id));
          }
        }
      }
    }
  }

  @Test
  void anotherJobsAttemptIsFormattedByHadoop() {
    AttemptIdFormat format = new AttemptIdFormat(new JobID("1795322851178", 1));
    TaskAttemptID other = new TaskAttemptID(new TaskID(new JobID("1795322851178", 2), TaskType.MAP, 5), 0);
    assertEquals("attempt_1795322851178_0002_m_000005_0", format.format(other));
  }
}
