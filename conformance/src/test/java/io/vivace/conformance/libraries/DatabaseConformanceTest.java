package io.vivace.conformance.libraries;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.vivace.conformance.Frameworks;
import io.vivace.conformance.OutputDirs;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.hsqldb.server.Server;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code DBInputFormat} and {@code DBOutputFormat} against a real database server (HSQLDB on
 * loopback, as tasks on a cluster reach theirs), with records of the job jar's own.
 */
class DatabaseConformanceTest {

  private static final String DRIVER = "org.hsqldb.jdbc.JDBCDriver";

  @TempDir
  static Path databaseDir;

  private static Server server;
  private static String url;

  @BeforeAll
  static void startServer() throws Exception {
    server = new Server();
    server.setAddress("127.0.0.1");
    try (java.net.ServerSocket free = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      server.setPort(free.getLocalPort()); // HSQLDB takes no port 0
    }
    server.setDatabaseName(0, "orders");
    server.setDatabasePath(0, "file:" + databaseDir.resolve("orders"));
    server.setSilent(true);
    server.setLogWriter(null);
    server.start();
    url = "jdbc:hsqldb:hsql://127.0.0.1:" + server.getPort() + "/orders";
    try (Connection c = DriverManager.getConnection(url, "SA", ""); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE orders (id BIGINT PRIMARY KEY, customer VARCHAR(32), amount BIGINT)");
      try (PreparedStatement insert = c.prepareStatement("INSERT INTO orders VALUES (?, ?, ?)")) {
        Random random = new Random(12);
        for (int id = 0; id < 3_000; id++) {
          insert.setLong(1, id);
          insert.setString(2, "c" + random.nextInt(200));
          insert.setLong(3, random.nextInt(10_000));
          insert.addBatch();
        }
        insert.executeBatch();
      }
    }
  }

  @AfterAll
  static void stopServer() {
    if (server != null) {
      server.shutdown();
    }
  }

  @TempDir
  Path root;

  @Test
  void ordersTotalledFromOneTableIntoAnother() throws Exception {
    SideBySide.Outcome outcome = SideBySide.run(root, JobJar.of("hadoop-library"),
        "io.vivace.jobs.library.DatabaseTotals", DRIVER, url);
    outcome.reference().assertSucceeded();
    outcome.underTest().assertSucceeded();
    OutputDirs.assertSameFiles(outcome.referenceOut(), outcome.underTestOut(), outcome.underTest().program());
  }

  /**
   * The JDBC driver only in {@code -libjars}: a job whose tasks alone reach the database. Hadoop's
   * {@code DBConfiguration} loads the driver by name, which on YARN finds it on the task's class path.
   */
  @Test
  @Tag("slow")
  void aJdbcDriverShippedOnlyWithLibjars() throws Exception {
    Path words = Inputs.textFiles(root.resolve("words"), 3, 500, 13,
        (random, i) -> "w" + random.nextInt(300) + " x" + random.nextInt(40) + " w" + random.nextInt(20));
    JobJar jar = JobJar.of("hadoop-library");
    String program = "io.vivace.jobs.library.WordsToDatabase";
    try (Connection c = DriverManager.getConnection(url, "SA", ""); Statement s = c.createStatement()) {
      for (String table : List.of("WORDS_REFERENCE", "WORDS_UNDER_TEST")) {
        s.execute("CREATE TABLE " + table + " (word VARCHAR(32), count INT)");
      }
    }
    ChildJvm.run(ChildJvm.Mode.SYSTEM_CLASS_PATH, Frameworks.REFERENCE, root.resolve("scratch-reference"), jar,
        program, DRIVER, url, "WORDS_REFERENCE", words.toString());
    ChildJvm.run(ChildJvm.Mode.JOB_JAR, Frameworks.underTest(), root.resolve("scratch-under-test"), jar,
        program, DRIVER, url, "WORDS_UNDER_TEST", words.toString());
    List<String> expected = rows("WORDS_REFERENCE");
    assertFalse(expected.isEmpty(), "the reference wrote no rows");
    assertEquals(expected, rows("WORDS_UNDER_TEST"));
  }

  private static List<String> rows(String table) throws Exception {
    List<String> rows = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(url, "SA", ""); Statement s = c.createStatement();
         ResultSet r = s.executeQuery("SELECT word, count FROM " + table + " ORDER BY word")) {
      while (r.next()) {
        rows.add(r.getString(1) + "=" + r.getInt(2));
      }
    }
    return rows;
  }
}
