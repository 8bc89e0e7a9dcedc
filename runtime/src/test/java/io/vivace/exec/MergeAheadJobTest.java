package io.vivace.exec;

import static io.vivace.testing.JobFixtures.VIVACE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.testing.JobFixtures;
import io.vivace.testing.JobFixtures.FinishedJob;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.FileSystemCounter;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.TaskReport;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormatCounter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A whole job whose map outputs all reach the disk (each map spills from a 1 MB sort buffer), with
 * sort factor 3 and two reduces: merged ahead of the reduces while maps run, or not, the output is
 * the same, the reduces' counters account for the merges' records and bytes, and no file is left.
 */
class MergeAheadJobTest {

  private static final int MAPS = 12;

  @TempDir
  Path root;

  private FinishedJob run(Path input, boolean mergeAhead) throws Exception {
    return run(input, mergeAhead, false);
  }

  private FinishedJob run(Path input, boolean mergeAhead, boolean compressed) throws Exception {
    return JobFixtures.runNewApiJob(VIVACE, root.resolve((mergeAhead ? "ahead" : "not-ahead")
            + (compressed ? "-compressed" : "")), input,
        (conf, in, out) -> {
          conf.setBoolean(MRJobConfig.MAP_OUTPUT_COMPRESS, compressed);
          conf.setInt(MRJobConfig.IO_SORT_MB, 1);
          conf.setInt(MRJobConfig.IO_SORT_FACTOR, 3);
          conf.setBoolean("vivace.reduce.merge.ahead", mergeAhead);
          Job job = Job.getInstance(conf, "merge ahead " + mergeAhead);
          FileInputFormat.addInputPath(job, in);
          FileOutputFormat.setOutputPath(job, out);
          job.setMapperClass(EmbeddedJobSpillTest.GeneratingMapper.class);
          job.setReducerClass(Reducer.class); // identity
          job.setOutputKeyClass(Text.class);
          job.setOutputValueClass(Text.class);
          job.setNumReduceTasks(2);
          return job;
        });
  }

  @Test
  void mapOutputsMergedWhileMapsRunGiveTheSameOutputAndCountTheMergesInTheReduces() throws Exception {
    Path input = root.resolve("input");
    for (int m = 0; m < MAPS; m++) {
      JobFixtures.writeInputLines(input.resolve("seed" + m), List.of((500 + m) + " 6000"));
    }
    FinishedJob ahead = run(input, true);
    FinishedJob notAhead = run(input, false);
    assertTrue(ahead.succeeded(), ahead.job().getStatus().getFailureInfo());
    assertTrue(notAhead.succeeded(), notAhead.job().getStatus().getFailureInfo());
    assertEquals(MAPS * 6000L, ahead.counter(TaskCounter.REDUCE_INPUT_RECORDS));
    // equal keys may come in another order of their values: compare each part's records as a set
    assertEquals(sortedParts(notAhead), sortedParts(ahead));

    // the reduces shuffled what the maps wrote, however much of it was merged ahead (compressed,
    // a merged file's size is not the sum of its inputs')
    FinishedJob compressed = run(input, true, true);
    assertTrue(compressed.succeeded(), compressed.job().getStatus().getFailureInfo());
    assertEquals(sortedParts(notAhead), sortedParts(compressed));
    assertEquals(compressed.counter(TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES),
        compressed.counter(TaskCounter.REDUCE_SHUFFLE_BYTES));
    long recordBytes = ahead.counter(TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES) / (MAPS * 6000L);
    long mergedAhead = 0;
    for (TaskReport reduce : ahead.job().getTaskReports(TaskType.REDUCE)) {
      Counters c = reduce.getTaskCounters();
      long shuffled = c.findCounter(TaskCounter.REDUCE_SHUFFLE_BYTES).getValue();
      long read = c.findCounter("file", FileSystemCounter.BYTES_READ).getValue();
      long written = c.findCounter("file", FileSystemCounter.BYTES_WRITTEN).getValue();
      long output = c.findCounter(FileOutputFormatCounter.BYTES_WRITTEN).getValue();
      long spilled = c.findCounter(TaskCounter.SPILLED_RECORDS).getValue();
      long intermediate = written - output;
      // every map output (all on disk) read once, every intermediate file written once and read once,
      // by whichever thread, before or after the last map
      assertEquals(shuffled + intermediate, read, reduce.getTaskId() + ": local bytes read");
      assertTrue(intermediate > 0, reduce.getTaskId() + ": 12 map outputs with factor 3 need merging");
      // the records of those intermediate files are the reduce's spilled records
      long bytesPerRecord = intermediate / spilled;
      assertTrue(Math.abs(bytesPerRecord - recordBytes) <= recordBytes / 10,
          reduce.getTaskId() + ": " + intermediate + " intermediate bytes for " + spilled + " spilled records");
      mergedAhead += spilled;
    }
    assertTrue(mergedAhead > 0);
    for (FinishedJob job : List.of(ahead, notAhead)) {
      Path local = JobFixtures.localDir(root.resolve(job == ahead ? "ahead" : "not-ahead"));
      assertEquals(List.of(), JobFixtures.filesBelow(local).stream()
          .filter(f -> f.contains(job.job().getJobID().toString())).toList(), "files left behind");
    }
  }

  private static Map<String, List<String>> sortedParts(FinishedJob job) {
    Map<String, List<String>> parts = new java.util.TreeMap<>();
    job.parts().forEach((name, lines) -> {
      List<String> sorted = new ArrayList<>(lines);
      sorted.sort(null);
      parts.put(name, sorted);
    });
    return parts;
  }
}
