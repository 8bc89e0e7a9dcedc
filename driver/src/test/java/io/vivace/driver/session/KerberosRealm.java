package io.vivace.driver.session;

import java.io.File;
import java.io.IOException;
import java.util.Properties;
import org.apache.hadoop.minikdc.MiniKdc;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.authentication.util.KerberosName;

/**
 * A Kerberos realm for the tests: Hadoop's MiniKdc on loopback, with a keytab for the cluster's
 * daemons ({@value #DAEMON}, with {@value #HTTP} for their web servers' SPNEGO) and one for each of
 * the two users, {@value #USER1} and {@value #USER2}. Starting it points this JVM's Kerberos at it
 * ({@code java.security.krb5.conf}).
 *
 * <p>The daemons of a mini-cluster share one JVM, and Hadoop keeps one login per JVM (each daemon's
 * keytab login replaces the last): so HDFS's and YARN's daemons log in as one principal, whose short
 * name {@code hdfs} is HDFS's superuser and the ResourceManager's name as a delegation token's
 * renewer. A real cluster has one principal per daemon kind; nothing in Vivace depends on which.
 */
final class KerberosRealm implements AutoCloseable {

  /** The host of every principal with one, and the KDC's address. */
  static final String HOST = "localhost";
  static final String DAEMON = "hdfs/" + HOST;
  static final String HTTP = "HTTP/" + HOST;
  static final String USER1 = "user1";
  static final String USER2 = "user2";

  private final MiniKdc kdc;
  private final File keytabs;

  private KerberosRealm(MiniKdc kdc, File keytabs) {
    this.kdc = kdc;
    this.keytabs = keytabs;
  }

  static KerberosRealm start(File dir) throws Exception {
    Properties conf = MiniKdc.createConf();
    conf.setProperty(MiniKdc.KDC_BIND_ADDRESS, HOST);
    File kdcDir = new File(dir, "kdc");
    File keytabs = new File(dir, "keytabs");
    if (!kdcDir.mkdirs() || !keytabs.mkdirs()) {
      throw new IOException("cannot make the KDC's folders in " + dir);
    }
    MiniKdc kdc = new MiniKdc(conf, kdcDir);
    kdc.start();
    KerberosName.resetDefaultRealm(); // Hadoop's short names strip the realm this JVM now has
    KerberosRealm realm = new KerberosRealm(kdc, keytabs);
    kdc.createPrincipal(realm.keytab(DAEMON), DAEMON, HTTP);
    kdc.createPrincipal(realm.keytab(USER1), USER1);
    kdc.createPrincipal(realm.keytab(USER2), USER2);
    return realm;
  }

  /** {@code name@REALM}. */
  String principal(String name) {
    return name + "@" + kdc.getRealm();
  }

  /** The keytab of {@value #DAEMON} (which also holds {@value #HTTP}), {@value #USER1} or {@value #USER2}. */
  File keytab(String name) {
    return new File(keytabs, name.replace('/', '_') + ".keytab");
  }

  /** A login of {@code name} from its keytab (this JVM's login user stays what it was). */
  UserGroupInformation login(String name) throws IOException {
    return UserGroupInformation.loginUserFromKeytabAndReturnUGI(principal(name), keytab(name).getAbsolutePath());
  }

  /** The {@code krb5.conf} that points at this realm's KDC. */
  File krb5Conf() {
    return kdc.getKrb5conf();
  }

  @Override
  public void close() {
    kdc.stop();
  }
}
