package io.vivace.conf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.JobConf;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where a value came from, with Hadoop's own configuration files and a file written from a whole configuration. */
class ValueSourcesTest {

  private static final String KEY = "mapreduce.task.timeout";

  @TempDir
  Path dir;

  private Configuration loaded(Configuration written) throws Exception {
    Path file = dir.resolve("whole.xml");
    try (OutputStream out = Files.newOutputStream(file)) {
      written.writeXml(out);
    }
    Configuration conf = new JobConf();
    conf.addResource(new org.apache.hadoop.fs.Path(file.toUri()));
    return conf;
  }

  @Test
  void hadoopsDefaultStaysTheDefaultThroughAFileWrittenFromAWholeConfiguration() throws Exception {
    assertTrue(ValueSources.isHadoopDefault(new JobConf(), KEY));
    Configuration conf = loaded(new JobConf());
    assertEquals(600000, conf.getInt(KEY, 0));
    assertEquals("mapred-default.xml", ValueSources.origin(conf, KEY));
    assertTrue(ValueSources.isHadoopDefault(conf, KEY));
  }

  @Test
  void aValueSetInTheProgramOrAFileIsNotTheDefault() throws Exception {
    JobConf program = new JobConf();
    program.setInt(KEY, 1000);
    assertFalse(ValueSources.isHadoopDefault(program, KEY));
    assertFalse(ValueSources.isHadoopDefault(loaded(program), KEY), "set, then written with every default");
    Configuration site = new Configuration(false);
    site.setInt(KEY, 1000);
    assertFalse(ValueSources.isHadoopDefault(loaded(site), KEY));
  }

  @Test
  void anUnsetKeyHasNoOriginAndIsTheDefault() {
    Configuration empty = new Configuration(false);
    assertNull(ValueSources.origin(empty, KEY));
    assertTrue(ValueSources.isHadoopDefault(empty, KEY));
  }
}
