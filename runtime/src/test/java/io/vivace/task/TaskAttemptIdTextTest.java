package io.vivace.task;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.hadoop.mapred.JobID;
import org.apache.hadoop.mapred.TaskAttemptID;
import org.apache.hadoop.mapred.TaskID;
import org.apache.hadoop.mapreduce.TaskType;
import org.junit.jupiter.api.Test;

/** The task and job ids an attempt's configuration gets, cut from its id's text, are Hadoop's. */
class TaskAttemptIdTextTest {

  @Test
  void taskAndJobIdTextsAreWhatHadoopFormats() {
    for (JobID job : new JobID[] {new JobID("1795322851178", 1), new JobID("1795322851178", 123456)}) {
      for (TaskType type : new TaskType[] {TaskType.MAP, TaskType.REDUCE}) {
        for (int index : new int[] {0, 7, 999_999, 1_234_567}) {
          TaskID task = new TaskID(job, type, index);
          TaskAttemptID attempt = new TaskAttemptID(task, 3);
          String taskText = TaskAttempt.taskIdText(attempt.toString());
          assertEquals(task.toString(), taskText);
          assertEquals(job.toString(), TaskAttempt.jobIdText(taskText));
        }
      }
    }
  }
}
