package io.vivace.shuffle.net;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.ssl.SSLFactory;

/**
 * A cluster's TLS files for the shuffle, made as an administrator makes them with the JDK's
 * {@code keytool}: one key pair whose certificate names {@code localhost}, in a keystore both ends
 * use, its certificate in a truststore both ends trust, and the {@code ssl-server.xml} and
 * {@code ssl-client.xml} naming them (Hadoop's keys) in a folder on the class path, where Hadoop's
 * {@link SSLFactory} looks for them. Not Hadoop's {@code KeyStoreTestUtil}: that is in hadoop-common's
 * tests jar, which the runtime's tests leave off their class path ({@code LauncherTest}).
 */
final class TlsFiles {

  static final String SERVER_XML = "ssl-server-vivace-test.xml";
  static final String CLIENT_XML = "ssl-client-vivace-test.xml";
  private static final String PASSWORD = "vivace-test";

  private TlsFiles() {
  }

  /**
   * Makes the stores in {@code dir} and the two settings files in {@code classPathDir}; returns
   * the TLS settings that name them, client certificates required when {@code clientCert}, host
   * names not checked (a test sets Hadoop's verifier to check them).
   */
  static Configuration make(Path dir, String classPathDir, boolean clientCert) throws Exception {
    File keystore = dir.resolve("keystore.jks").toFile();
    File truststore = dir.resolve("truststore.jks").toFile();
    File certificate = dir.resolve("localhost.cer").toFile();
    keytool("-genkeypair", "-alias", "localhost", "-keyalg", "RSA", "-keysize", "2048", "-validity", "30",
        "-dname", "CN=localhost", "-keystore", keystore.getPath(), "-storetype", "JKS",
        "-storepass", PASSWORD, "-keypass", PASSWORD);
    keytool("-exportcert", "-alias", "localhost", "-keystore", keystore.getPath(), "-storepass", PASSWORD,
        "-file", certificate.getPath());
    keytool("-importcert", "-noprompt", "-alias", "localhost", "-file", certificate.getPath(),
        "-keystore", truststore.getPath(), "-storetype", "JKS", "-storepass", PASSWORD);
    save(new File(classPathDir, SERVER_XML), stores("server", keystore, truststore));
    save(new File(classPathDir, CLIENT_XML), stores("client", keystore, truststore));
    Configuration tls = new Configuration(false);
    tls.set(SSLFactory.SSL_SERVER_CONF_KEY, SERVER_XML);
    tls.set(SSLFactory.SSL_CLIENT_CONF_KEY, CLIENT_XML);
    tls.setBoolean(SSLFactory.SSL_REQUIRE_CLIENT_CERT_KEY, clientCert);
    tls.set(SSLFactory.SSL_HOSTNAME_VERIFIER_KEY, "ALLOW_ALL");
    return tls;
  }

  /** Removes the settings files {@link #make} wrote to {@code classPathDir}. */
  static void remove(String classPathDir) {
    new File(classPathDir, SERVER_XML).delete();
    new File(classPathDir, CLIENT_XML).delete();
  }

  /** The folder on the class path that {@code type}'s class was loaded from. */
  static String classPathDir(Class<?> type) throws URISyntaxException {
    return new File(type.getProtectionDomain().getCodeSource().getLocation().toURI()).getPath();
  }

  static void save(File file, Configuration conf) throws IOException {
    try (OutputStream out = new FileOutputStream(file)) {
      conf.writeXml(out);
    }
  }

  private static Configuration stores(String side, File keystore, File truststore) {
    Configuration conf = new Configuration(false);
    conf.set("ssl." + side + ".keystore.location", keystore.getPath());
    conf.set("ssl." + side + ".keystore.password", PASSWORD);
    conf.set("ssl." + side + ".keystore.keypassword", PASSWORD);
    conf.set("ssl." + side + ".keystore.type", "jks");
    conf.set("ssl." + side + ".truststore.location", truststore.getPath());
    conf.set("ssl." + side + ".truststore.password", PASSWORD);
    conf.set("ssl." + side + ".truststore.type", "jks");
    return conf;
  }

  private static void keytool(String... args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes());
    if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
      throw new IOException("keytool " + String.join(" ", args) + " failed: " + output);
    }
  }
}
