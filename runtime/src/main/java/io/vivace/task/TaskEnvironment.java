package io.vivace.task;

import io.vivace.localdisk.LocalDirs;
import io.vivace.segment.SegmentCodec;
import io.vivace.shuffle.ShuffleMemory;
import io.vivace.shuffle.ShuffleRegistry;
import java.io.File;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.JobID;

/**
 * What every task attempt of a job shares: the job's configuration, its shuffle, how its map output
 * is stored and its local folders. Nothing here resolves the job's classes: what does (the
 * serialisations, the splits, the job's formats) is made per attempt, with the attempt's loader.
 */
public record TaskEnvironment(JobConf jobConf, JobID jobId, int maps, int reduces,
                              ShuffleRegistry shuffle,
                              ShuffleMemory shuffleMemory, SegmentCodec mapOutputCodec,
                              LocalDirs localDirs) {

  /** The job's own local folder ({@link LocalDirs#jobDir}). */
  public File jobLocalDir() {
    return localDirs.jobDir();
  }
}
