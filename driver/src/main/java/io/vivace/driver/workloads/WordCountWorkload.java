package io.vivace.driver.workloads;

import io.vivace.driver.DataFiles;
import io.vivace.driver.InputData;
import io.vivace.driver.OutputDigest;
import io.vivace.driver.Param;
import io.vivace.driver.Params;
import io.vivace.driver.Phase;
import io.vivace.driver.Validation;
import io.vivace.driver.WorkloadContext;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.MRJobConfig;

/**
 * Apache's WordCount over RandomTextWriter's {@code bytes} of text in {@code maps} files, with
 * {@code reduces} reducers. Validated in the driver: every part file is sorted by word (Text's
 * byte order) without repeats, and the counts add up to the words in the input. The output
 * checksum is the SHA-256 of the part files one after the other: the same across engines for the
 * same input and reducer count (the hash partitioner decides which words each part holds).
 */
final class WordCountWorkload extends OutputWorkload {

  static final String NAME = "wordcount";
  static final String DESCRIPTION = "randomtextwriter (text) and WordCount";
  static final List<Param> PARAMS =
      List.of(SharedParams.bytes("text"), SharedParams.maps(), SharedParams.reduces());

  WordCountWorkload(Params params) {
    super(NAME, params, "wordcount-out");
  }

  @Override
  public InputData input() {
    return new RandomTextInput(params.get("bytes"), params.intValue("maps"));
  }

  @Override
  public void run(WorkloadContext ctx) throws Exception {
    Path output = output(ctx);
    ctx.runTool(Phase.RUN, "wordcount", new WordCountTool(),
        Map.of(MRJobConfig.NUM_REDUCES, Long.toString(params.get("reduces"))),
        ctx.data().path().toString(), output.toString());
  }

  @Override
  public Validation validate(WorkloadContext ctx) throws Exception {
    Path output = output(ctx);
    FileSystem fs = output.getFileSystem(ctx.conf());
    long outputBytes = DataFiles.bytes(fs, output);
    String digest = OutputDigest.ofBytes(fs, output);
    long inputWords = ctx.data().figure(RandomTextInput.WORDS);
    long counted = 0;
    long distinct = 0;
    List<Path> parts = DataFiles.paths(fs, output);
    for (Path part : parts) {
      try (BufferedReader in = new BufferedReader(
          new InputStreamReader(fs.open(part), StandardCharsets.UTF_8))) {
        Text previous = null;
        for (String line; (line = in.readLine()) != null; ) {
          int tab = line.lastIndexOf('\t');
          long count = tab > 0 ? parseCount(line.substring(tab + 1)) : -1;
          if (count <= 0) {
            return Validation.failed("wordcount: malformed line in " + part.getName() + ": '"
                + line + "'", digest, outputBytes);
          }
          Text word = new Text(line.substring(0, tab));
          if (previous != null && previous.compareTo(word) >= 0) {
            return Validation.failed("wordcount: " + part.getName() + " is not sorted: '"
                + word + "' after '" + previous + "'", digest, outputBytes);
          }
          previous = word;
          counted += count;
          distinct++;
        }
      }
    }
    if (counted != inputWords) {
      return Validation.failed("wordcount: counts sum to " + counted + ", the input has "
          + inputWords + " words", digest, outputBytes);
    }
    return Validation.passed("wordcount: " + distinct + " distinct words in " + parts.size()
        + " sorted part(s), counts sum to the input's " + inputWords + " words", digest,
        outputBytes);
  }

  private static long parseCount(String text) {
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
