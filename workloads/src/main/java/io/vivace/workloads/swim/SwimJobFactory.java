package io.vivace.workloads.swim;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.SequenceFileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.SequenceFileOutputFormat;

/**
 * The Hadoop job for one synthesised trace job: {@link SwimMapper} over the job's pool partitions
 * (one split each), {@link SwimReducer} with the job's reducers, SequenceFile output.
 */
public final class SwimJobFactory {

  public static final String SEED = "vivace.swim.seed";
  public static final String JOB_INDEX = "vivace.swim.job.index";
  public static final String MAP_RATIO = "vivace.swim.map.records.per.input";
  public static final String REDUCE_RATIO = "vivace.swim.reduce.records.per.value";

  private SwimJobFactory() {}

  /** A job named {@code swim-<index>-<trace name>}, ready to submit. */
  public static Job create(Configuration base, SynthesisedJob synthesised, ReplaySettings settings,
      Path pool, Path output) throws IOException {
    Job job = Job.getInstance(new Configuration(base),
        "swim-" + synthesised.index() + "-" + synthesised.trace().name());
    job.setJarByClass(SwimMapper.class);
    Configuration conf = job.getConfiguration();
    conf.setLong(SEED, settings.seed());
    conf.setInt(JOB_INDEX, synthesised.index());
    conf.setDouble(MAP_RATIO, synthesised.mapRatio());
    conf.setDouble(REDUCE_RATIO, synthesised.reduceRatio());
    // A partition is at most one block; a larger minimum split keeps it one split on any file system.
    conf.setLong(FileInputFormat.SPLIT_MINSIZE, settings.pool().blockSize());
    for (int partition : synthesised.partitionIndexes(settings.pool().partitions())) {
      FileInputFormat.addInputPath(job, new Path(pool, PoolLayout.fileName(partition)));
    }
    job.setInputFormatClass(SequenceFileInputFormat.class);
    job.setMapperClass(SwimMapper.class);
    job.setReducerClass(SwimReducer.class);
    job.setNumReduceTasks(synthesised.reducers());
    job.setMapOutputKeyClass(BytesWritable.class);
    job.setMapOutputValueClass(BytesWritable.class);
    job.setOutputKeyClass(BytesWritable.class);
    job.setOutputValueClass(BytesWritable.class);
    job.setOutputFormatClass(SequenceFileOutputFormat.class);
    FileOutputFormat.setOutputPath(job, output);
    return job;
  }
}
