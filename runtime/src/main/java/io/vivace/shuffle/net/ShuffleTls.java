package io.vivace.shuffle.net;

import java.io.IOException;
import java.net.URL;
import java.security.GeneralSecurityException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.security.ssl.SSLFactory;

/**
 * Whether the shuffle between executors runs over TLS, and Hadoop's {@link SSLFactory} that sets
 * it up as a NodeManager's shuffle server and a reduce's fetcher do: Hadoop's key
 * {@code mapreduce.shuffle.ssl.enabled}, the keystores and truststores of the cluster's
 * {@code ssl-server.xml} and {@code ssl-client.xml} (named by {@code hadoop.ssl.server.conf} and
 * {@code hadoop.ssl.client.conf}, found on the class path), {@code hadoop.ssl.enabled.protocols},
 * {@code hadoop.ssl.require.client.cert} and {@code hadoop.ssl.hostname.verifier}.
 */
final class ShuffleTls {

  static final String ENABLED_KEY = MRConfig.SHUFFLE_SSL_ENABLED_KEY;

  private ShuffleTls() {
  }

  /** Whether {@code conf} turns TLS on ({@code mapreduce.shuffle.ssl.enabled}, false by default). */
  static boolean enabled(Configuration conf) {
    return conf.getBoolean(ENABLED_KEY, MRConfig.SHUFFLE_SSL_ENABLED_DEFAULT);
  }

  /**
   * Hadoop's factory of {@code mode}, initialised: its keystores read. A missing file or setting
   * fails naming the file and Hadoop's message, which names the key.
   */
  static SSLFactory start(Configuration conf, SSLFactory.Mode mode) throws IOException {
    boolean server = mode == SSLFactory.Mode.SERVER;
    String fileKey = server ? SSLFactory.SSL_SERVER_CONF_KEY : SSLFactory.SSL_CLIENT_CONF_KEY;
    String file = conf.get(fileKey, server ? SSLFactory.SSL_SERVER_CONF_DEFAULT : SSLFactory.SSL_CLIENT_CONF_DEFAULT);
    String side = server ? "the executor's shuffle server" : "the shuffle's fetches";
    URL found = conf.getResource(file);
    if (found == null) {
      throw new IOException(ENABLED_KEY + " is true but " + file + " (" + fileKey + "), the TLS settings of " + side
          + ", is not on the class path (the node's Hadoop configuration folder, HADOOP_CONF_DIR)");
    }
    SSLFactory factory = new SSLFactory(mode, conf);
    try {
      factory.init();
      return factory;
    } catch (GeneralSecurityException | IOException | RuntimeException e) {
      factory.destroy();
      throw new IOException(ENABLED_KEY + " is true but TLS for " + side + " cannot start from " + found + " ("
          + fileKey + "): " + SegmentFetcher.describe(e), e);
    }
  }
}
