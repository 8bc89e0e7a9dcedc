package io.vivace.cli;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;

/**
 * Runs, on a daemon thread beside the program's {@code main}, the code every job client runs cold
 * and on its critical path: Hadoop's configuration parser (the default resources, then
 * {@code job.xml} read back at submission) and {@code Configuration.writeXml}, which writes
 * {@code job.xml} through the JDK's XSLT identity transform. The first {@code writeXml} of a job's
 * configuration took 545 to 850 ms on the 2-core benchmark machine (loading and initialising the
 * transformer, its charset tables, interpreted code), 175 to 360 ms once this had run beside it.
 *
 * <p>It parses and writes a configuration of its own, made-up keys held in memory: no file is read
 * (a site file's deprecated keys would have their one-time warning logged from this thread) and
 * nothing the program sees changes. Its context class loader is the job's, as the program's
 * thread's is, for what class initialisation looks up through it.
 */
final class ClientWarmUp {

  /** Enough properties for the parser's and the writer's loops to be compiled. */
  static final int PROPERTIES = 300;

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
