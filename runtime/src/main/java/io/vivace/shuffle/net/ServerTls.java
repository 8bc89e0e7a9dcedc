package io.vivace.shuffle.net;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import java.io.IOException;
import java.security.GeneralSecurityException;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.ssl.SSLFactory;

/**
 * TLS for an executor's {@link MapOutputServer}: Hadoop's server-side {@link SSLFactory} (the
 * cluster's {@code ssl-server.xml}), as the JDK's HTTPS server takes it: a context of the factory's
 * key and trust managers, and every connection with the parameters of the factory's own engines
 * (protocols, cipher suites without the excluded ones, whether a client certificate is required).
 */
final class ServerTls implements AutoCloseable {

  private final SSLFactory factory;
  private final HttpsConfigurator configurator;

  private ServerTls(SSLFactory factory, HttpsConfigurator configurator) {
    this.factory = factory;
    this.configurator = configurator;
  }

  static ServerTls start(Configuration conf) throws IOException {
    SSLFactory factory = ShuffleTls.start(conf, SSLFactory.Mode.SERVER);
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(factory.getKeystoresFactory().getKeyManagers(), factory.getKeystoresFactory().getTrustManagers(),
          null);
      SSLParameters parameters = factory.createSSLEngine().getSSLParameters();
      return new ServerTls(factory, new HttpsConfigurator(context) {
        @Override
        public void configure(HttpsParameters connection) {
          connection.setSSLParameters(parameters);
        }
      });
    } catch (GeneralSecurityException | IOException | RuntimeException e) {
      factory.destroy();
      throw new IOException(ShuffleTls.ENABLED_KEY + " is true but TLS for the executor's shuffle server cannot start: "
          + SegmentFetcher.describe(e), e);
    }
  }

  HttpsConfigurator configurator() {
    return configurator;
  }

  /** Stops the factory's reloading of the truststore. */
  @Override
  public void close() {
    factory.destroy();
  }
}
