package io.vivace.submit;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.io.serializer.SerializationFactory;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.split.JobSplit;
import org.apache.hadoop.mapreduce.split.SplitMetaInfoReader;

/**
 * Reads the input splits the job client wrote at submission ({@code job.split} and its meta info):
 * the number of maps is the number of splits. The first is read back at once, so that a split class
 * the job cannot load fails the submission rather than every map.
 */
public final class SplitReader {

  private SplitReader() {
  }

  public static InputSplits read(JobID jobId, Configuration conf, Path submitDir) throws IOException {
    FileSystem fs = submitDir.getFileSystem(conf);
    JobSplit.TaskSplitMetaInfo[] meta = SplitMetaInfoReader.readSplitMetaInfo(jobId, fs, conf, submitDir);
    int[] offsets = new int[meta.length];
    String[][] locations = new String[meta.length][];
    for (int i = 0; i < meta.length; i++) {
      locations[i] = meta[i].getLocations();
    }
    if (meta.length == 0) {
      return new InputSplits(jobId.toString(), new byte[0], offsets, locations);
    }
    Path splitFile = new Path(meta[0].getSplitLocation());
    byte[] content;
    try (FSDataInputStream in = splitFile.getFileSystem(conf).open(splitFile)) {
      long length = splitFile.getFileSystem(conf).getFileStatus(splitFile).getLen();
      content = new byte[(int) length];
      IOUtils.readFully(in, content, 0, content.length);
    }
    for (int i = 0; i < meta.length; i++) {
      offsets[i] = (int) meta[i].getStartOffset();
    }
    InputSplits splits = new InputSplits(jobId.toString(), content, offsets, locations);
    splits.read(0, conf, new SerializationFactory(conf));
    return splits;
  }
}
