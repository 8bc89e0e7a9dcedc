package io.vivace.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/**
 * The start-up warm-up really runs Hadoop's configuration parser and its job.xml writer: what it
 * writes, read back by Hadoop's own parser, holds every made-up property it parsed, and nothing else.
 */
class ClientWarmUpTest {

  @Test
  void parsesItsResourceAndWritesItBackAsHadoopDoes() throws Exception {
    Configuration written = new Configuration(false);
    written.addResource(new ByteArrayInputStream(ClientWarmUp.parseAndWrite()), "written");
    assertEquals(ClientWarmUp.PROPERTIES, written.size());
    for (int i = 0; i < ClientWarmUp.PROPERTIES; i++) {
      assertEquals("value " + i, written.get("vivace.client.warm-up.key." + i));
    }
  }
}
