package io.vivace.exec;

import static io.vivace.testing.JobFixtures.VIVACE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.testing.JobFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.map.TokenCounterMapper;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.reduce.IntSumReducer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several jobs submitted at once share the engine's worker threads (and their reused sort
 * buffers), its shuffle budget and its file system caches: each must still produce exactly its
 * own result and its own history.
 */
class ConcurrentEmbeddedJobsTest {

  @TempDir
  Path root;

  @Test
  void jobsSubmittedTogetherEachGetTheirOwnResult() throws Exception {
    int jobs = 4;
    List<Job> running = new ArrayList<>();
    List<Map<String, Integer>> expected = new ArrayList<>();
    List<Path> outputs = new ArrayList<>();
    Set<String> ids = new HashSet<>();
    for (int j = 0; j < jobs; j++) {
      Path jobRoot = root.resolve("job" + j);
      Path input = jobRoot.resolve("input");
      Map<String, Integer> counts = new TreeMap<>();
      Random random = new Random(j);
      for (int f = 0; f < 3; f++) {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 1_500; i++) {
          StringBuilder line = new StringBuilder();
          for (int w = 0; w < 12; w++) {
            String word = "j" + j + "w" + random.nextInt(800);
            counts.merge(word, 1, Integer::sum);
            line.append(word).append(' ');
          }
          lines.add(line.toString());
        }
        JobFixtures.writeInputLines(input.resolve("in" + f), lines);
      }
      expected.add(counts);
      Configuration conf = JobFixtures.frameworkConf(jobRoot, VIVACE);
      if (j % 2 == 0) {
        conf.setInt(MRJobConfig.IO_SORT_MB, 1); // these spill; the others keep outputs in memory
      }
      Job job = Job.getInstance(conf, "concurrent " + j);
      job.setMapperClass(TokenCounterMapper.class);
      if (j < 2) {
        job.setCombinerClass(IntSumReducer.class);
      }
      job.setReducerClass(IntSumReducer.class);
      job.setOutputKeyClass(Text.class);
      job.setOutputValueClass(IntWritable.class);
      job.setNumReduceTasks(1 + j % 3);
      FileInputFormat.addInputPath(job, JobFixtures.hadoopPath(input));
      Path output = jobRoot.resolve("out");
      outputs.add(output);
      FileOutputFormat.setOutputPath(job, JobFixtures.hadoopPath(output));
      job.submit();
      running.add(job);
      assertTrue(ids.add(job.getJobID().toString()), "job ids are unique");
    }
    for (int j = 0; j < jobs; j++) {
      Job job = running.get(j);
      assertTrue(job.waitForCompletion(false), "job " + j);
      List<String> want = new ArrayList<>();
      expected.get(j).forEach((w, n) -> want.add(w + "\t" + n));
      List<String> got = new ArrayList<>(JobFixtures.readPartLines(outputs.get(j)));
      got.sort(null);
      assertEquals(want, got, "output of job " + j);
      assertEquals(1 + j % 3, JobFixtures.partFileNames(outputs.get(j)).size());
      Path history = JobFixtures.historyDir(root.resolve("job" + j)).resolve(job.getJobID() + ".jsonl");
      assertTrue(Files.isRegularFile(history), "job " + j + " wrote its history to its own directory");
    }
  }
}
