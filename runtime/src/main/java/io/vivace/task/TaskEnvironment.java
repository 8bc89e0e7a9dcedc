package io.vivace.task;

import io.vivace.localdisk.LocalDirs;
import io.vivace.segment.SegmentCodec;
import io.vivace.shuffle.ShuffleMemory;
import io.vivace.shuffle.ShuffleInput;
import java.io.File;
import org.apache.hadoop.io.serializer.SerializationFactory;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.JobID;

/**
 * What every task attempt of a job shares: the job's configuration, its serialisations (built once
 * per job, not per task), where its reduces here read map outputs from, how its map output is
 * stored and its local folders.
 */
public record TaskEnvironment(JobConf jobConf, JobID jobId, int maps, int reduces,
                              SerializationFactory serialization, ShuffleInput shuffle,
                              ShuffleMemory shuffleMemory, SegmentCodec mapOutputCodec,
                              LocalDirs localDirs) {

  /** The job's own local folder ({@link LocalDirs#jobDir}). */
  public File jobLocalDir() {
    return localDirs.jobDir();
  }
}
