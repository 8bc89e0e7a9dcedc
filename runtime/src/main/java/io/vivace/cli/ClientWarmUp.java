package io.vivace.cli;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;

/**
 * Runs, on a daemon thread beside the program's {@code main}, code every job client runs cold and
 * on its critical path: Hadoop's configuration parser and {@code Configuration.writeXml}, which
 * writes {@code job.xml} through the JDK's XSLT identity transform. Cold, the client's first
 * {@code writeXml} spends most of its time loading and initialising the transformer and its
 * charset tables: 460 to 520 ms on the 2-core benchmark machine at load 6 to 8, 220 to 265 ms with
 * this beside it.
 *
 * <p>It only loads and initialises those classes, by parsing and writing a configuration of
 * {@link #PROPERTIES} made-up keys held in memory. A configuration of 300 keys, which also got the
 * loops compiled, cut the write to 70 to 150 ms, but its CPU slowed the rest of the start-up on 2
 * cores by more than that. No file is read (a site file's deprecated keys would have their one-time
 * warning logged from this thread), and nothing the program sees changes. Its context class loader
 * is the job's, as the program's thread's is, for what class initialisation looks up through it.
 */
final class ClientWarmUp {

  /** Enough to go through the parser's and the writer's code once; more costs CPU (above). */
  static final int PROPERTIES = 2;

  private ClientWarmUp() {
  }

  static void startBeside(ClassLoader jobLoader) {
    Thread thread = new Thread(ClientWarmUp::runQuietly, "vivace-client-warm-up");
    thread.setDaemon(true);
    thread.setContextClassLoader(jobLoader);
    thread.start();
  }

  private static void runQuietly() {
    try {
      parseAndWrite();
    } catch (IOException | RuntimeException | LinkageError e) {
      // only a head start: the program does the same work itself anyway
    }
  }

  /** Parses {@link #resource} with Hadoop's parser and writes it back as {@code job.xml} is written. */
  static byte[] parseAndWrite() throws IOException {
    Configuration conf = new Configuration(false);
    conf.addResource(new ByteArrayInputStream(resource()), "vivace-client-warm-up");
    ByteArrayOutputStream xml = new ByteArrayOutputStream();
    conf.writeXml(xml);
    return xml.toByteArray();
  }

  /** A configuration file shaped like Hadoop's default resources: names, values, descriptions. */
  static byte[] resource() {
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
    for (int i = 0; i < PROPERTIES; i++) {
      xml.append("<property>\n  <name>vivace.client.warm-up.key.").append(i).append("</name>\n")
          .append("  <value>value ").append(i).append("</value>\n")
          .append("  <description>Made up: parsed and written once at start-up.</description>\n")
          .append("</property>\n");
    }
    return xml.append("</configuration>\n").toString().getBytes(StandardCharsets.UTF_8);
  }
}
