package io.vivace.exec;

import io.vivace.conf.VivaceConf;
import io.vivace.segment.SegmentCodec;
import io.vivace.shuffle.MapOutputStore;
import io.vivace.shuffle.MergeAhead;
import io.vivace.shuffle.ShuffleMemory;
import io.vivace.shuffle.ShuffleRegistry;
import io.vivace.submit.Submission;
import io.vivace.task.TaskEnvironment;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRJobConfig;

/**
 * What this JVM holds to run a job's attempts: the job read back ({@link Submission}) and what
 * every attempt here shares ({@link TaskEnvironment}: the shuffle of the map outputs
 * made here, the shuffle budget, the map output codec, local folders).
 */
public final class LocalJob {

  private final Submission submission;
  private final TaskEnvironment env;
  private final ShuffleRegistry shuffle;

  /**
   * {@code reducesHere}: the job's reduces read map outputs from this JVM, so merging them ahead of
   * the reduce ({@code vivace.reduce.merge.ahead}) may help; not where map outputs are served to
   * other hosts.
   */
  public LocalJob(Submission submission, ShuffleMemory shuffleMemory, SegmentCodec mapOutputCodec,
                  boolean reducesHere) {
    this.submission = submission;
    JobConf conf = submission.conf();
    int maps = submission.splits().count();
    int reduces = conf.getNumReduceTasks();
    this.shuffle = new ShuffleRegistry(maps, reduces);
    if (reducesHere && reduces > 0 && VivaceConf.getBoolean(conf, "vivace.reduce.merge.ahead")) {
      MergeAhead.attach(shuffle, conf.getInt(MRJobConfig.IO_SORT_FACTOR, MRJobConfig.DEFAULT_IO_SORT_FACTOR),
          conf::getOutputKeyComparator, mapOutputCodec, submission.localDirs().scratch("merge-ahead"),
          "vivace-merge-ahead-" + submission.id(), conf.getClassLoader());
    }
    this.env = new TaskEnvironment(conf, submission.id(), maps, reduces, shuffle, shuffleMemory, mapOutputCodec, submission.localDirs());
  }

  public Submission submission() {
    return submission;
  }

  public TaskEnvironment env() {
    return env;
  }

  /** Where the job's map attempts run here leave their output. */
  public MapOutputStore shuffle() {
    return shuffle;
  }
}
