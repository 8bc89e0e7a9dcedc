package io.vivace.exec;

import static io.vivace.testing.JobFixtures.VIVACE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.testing.JobFixtures;
import java.io.IOException;
import java.nio.file.Path;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two users' jobs at once on the embedded engine's shared worker threads: every map and reduce
 * sees its own job's user as {@code UserGroupInformation.getCurrentUser()}, as a task in a JVM of
 * its own does on Hadoop, whichever user's job made the worker threads (Java 17 threads inherit
 * their creator's Subject; from Java 24 on they inherit none).
 */
class JobUserIdentityTest {

  private static final int MAPS = 6;

  @TempDir
  Path root;

  /** Emits the user it runs as, once per record. */
  public static final class UserMapper extends Mapper<LongWritable, Text, Text, IntWritable> {
    @Override
    protected void map(LongWritable key, Text value, Context context)
        throws IOException, InterruptedException {
      context.write(new Text("map ran as " + UserGroupInformation.getCurrentUser().getShortUserName()),
          new IntWritable(1));
    }
  }

  /** Sums, and names the user the reduce runs as. */
  public static final class UserReducer extends Reducer<Text, IntWritable, Text, IntWritable> {
    @Override
    protected void reduce(Text key, Iterable<IntWritable> values, Context context)
        throws IOException, InterruptedException {
      int sum = 0;
      for (IntWritable value : values) {
        sum += value.get();
      }
      String user = UserGroupInformation.getCurrentUser().getShortUserName();
      context.write(new Text(key + ", reduce ran as " + user), new IntWritable(sum));
    }
  }

  @Test
  void eachAttemptRunsAsItsJobsUserWhicheverUsersJobStartedTheWorkers() throws Exception {
    // alice's job first: on Java 17 the engine's worker threads are made under her Subject
    Job alice = submitAs("alice");
    Job bob = submitAs("bob");
    Job carol = submitAs("carol");

    for (Job job : List.of(alice, bob, carol)) {
      assertTrue(job.waitForCompletion(false), job.getJobName());
      String user = job.getJobName();
      assertEquals(List.of("map ran as " + user + ", reduce ran as " + user + "\t" + MAPS * 50),
          JobFixtures.readPartLines(root.resolve(user).resolve("out")), "output of " + user + "'s job");
    }
  }

  private Job submitAs(String user) throws Exception {
    Path jobRoot = root.resolve(user);
    for (int m = 0; m < MAPS; m++) {
      List<String> lines = new ArrayList<>();
      for (int i = 0; i < 50; i++) {
        lines.add(user + " line " + i);
      }
      JobFixtures.writeInputLines(jobRoot.resolve("input").resolve("part" + m), lines);
    }
    Configuration conf = JobFixtures.frameworkConf(jobRoot, VIVACE);
    UserGroupInformation ugi = UserGroupInformation.createRemoteUser(user);
    return ugi.doAs((PrivilegedExceptionAction<Job>) () -> {
      Job job = Job.getInstance(conf, user);
      job.setMapperClass(UserMapper.class);
      job.setReducerClass(UserReducer.class);
      job.setOutputKeyClass(Text.class);
      job.setOutputValueClass(IntWritable.class);
      job.setNumReduceTasks(1);
      FileInputFormat.addInputPath(job, JobFixtures.hadoopPath(jobRoot.resolve("input")));
      FileOutputFormat.setOutputPath(job, JobFixtures.hadoopPath(jobRoot.resolve("out")));
      job.submit();
      return job;
    });
  }
}
