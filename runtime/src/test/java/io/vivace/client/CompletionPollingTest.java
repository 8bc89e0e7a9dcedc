package io.vivace.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.JobConf;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How often a Vivace job's client asks whether its job ended: 5 ms unless the user set
 * {@code mapreduce.client.completion.pollinterval}, whatever file carries Hadoop's default of 5 s.
 */
class CompletionPollingTest {

  private static final String KEY = "mapreduce.client.completion.pollinterval";

  @TempDir
  Path dir;

  /** A client configuration of Hadoop's defaults and {@code file}, as {@code -conf file} loads it. */
  private static Configuration clientWith(Path file) {
    Configuration conf = new JobConf(); // with mapred-default.xml
    conf.addResource(new org.apache.hadoop.fs.Path(file.toUri()));
    return conf;
  }

  private Path written(Configuration source) throws Exception {
    Path file = dir.resolve("client.xml");
    try (OutputStream out = Files.newOutputStream(file)) {
      source.writeXml(out);
    }
    return file;
  }

  @Test
  void hadoopsDefaultIsShortenedAlsoWhenAWholeConfigurationFileCarriesIt() throws Exception {
    Configuration client = clientWith(written(new JobConf())); // as a mini-cluster's client file: every default
    assertEquals(5000, client.getInt(KEY, 0), "the file carries Hadoop's default");
    ClientPolls.shorten(client, KEY, 5);
    assertEquals(5, client.getInt(KEY, 0));
  }

  @Test
  void hadoopsDefaultAloneIsShortened() {
    Configuration client = new JobConf();
    ClientPolls.shorten(client, KEY, 5);
    assertEquals(5, client.getInt(KEY, 0));
  }

  @Test
  void aValueTheUserSetIsKeptInAFileOrInTheProgram() throws Exception {
    Configuration site = new Configuration(false);
    site.setInt(KEY, 250);
    Configuration fromFile = clientWith(written(site));
    ClientPolls.shorten(fromFile, KEY, 5);
    assertEquals(250, fromFile.getInt(KEY, 0), "set in the user's file");

    Configuration fromWholeFile = clientWith(written(withValue(new JobConf(), 250)));
    ClientPolls.shorten(fromWholeFile, KEY, 5);
    assertEquals(250, fromWholeFile.getInt(KEY, 0), "set by a program, then written with every default");

    Configuration program = withValue(new JobConf(), 250);
    ClientPolls.shorten(program, KEY, 5);
    assertEquals(250, program.getInt(KEY, 0), "set by the program");
  }

  private static Configuration withValue(Configuration conf, int millis) {
    conf.setInt(KEY, millis);
    return conf;
  }
}
