package io.vivace.task;

import io.vivace.localdisk.LocalDirs;
import io.vivace.segment.SegmentCodec;
import io.vivace.shuffle.ShuffleInput;
import io.vivace.shuffle.ShuffleMemory;
import java.io.File;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.JobID;

/**
 * What every task attempt of a job shares: the job's configuration, where its reduces here read
 * map outputs from, how its map output is stored and its local folders. Nothing here resolves the
 * job's classes: what does (the serialisations, the splits, the job's formats) is made per attempt,
 * with the attempt's loader.
 */
public record TaskEnvironment(JobConf jobConf, JobID jobId, int maps, int reduces,
                              ShuffleInput shuffle,
                              ShuffleMemory shuffleMemory, SegmentCodec mapOutputCodec,
                              LocalDirs localDirs) {

  /** The job's own local folder ({@link LocalDirs#jobDir}). */
  public File jobLocalDir() {
    return localDirs.jobDir();
  }
}
