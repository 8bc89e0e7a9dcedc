package io.vivace.driver.session;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.cluster.security.SessionAccess;
import io.vivace.cluster.security.SessionAccessException;
import io.vivace.cluster.security.SessionSecret;
import io.vivace.cluster.security.SessionSecretStore;
import java.io.IOException;
import java.security.PrivilegedExceptionAction;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The secret file on Apache's MiniDFSCluster with permissions on: the owner writes and reads it,
 * another user can neither read it nor write into the owner's folder. In the driver module, which
 * has HDFS's test jars: the runtime's test class path stands for its own and holds none.
 */
@Tag("minicluster") // left out of `vivace test --fast`
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class SessionSecretStoreOnHdfsTest {

  private static final String SESSION = "application_1700000000000_0042";

  @TempDir
  static java.nio.file.Path base;

  private static MiniDFSCluster hdfs;
  private static Configuration conf;

  @BeforeAll
  static void startHdfs() throws IOException {
    Configuration clusterConf = new Configuration();
    clusterConf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, base.toString());
    clusterConf.setBoolean("dfs.permissions.enabled", true);
    hdfs = new MiniDFSCluster.Builder(clusterConf).numDataNodes(1).build();
    hdfs.waitActive();
    conf = new Configuration(hdfs.getConfiguration(0));
    // The homes as an administrator sets them up: /user/alice and /user/bob, each 0755 and its own.
    FileSystem admin = hdfs.getFileSystem();
    for (String user : new String[] {"alice", "bob"}) {
      Path home = new Path("/user/" + user);
      admin.mkdirs(home, new FsPermission((short) 0755));
      admin.setOwner(home, user, "users");
    }
  }

  @AfterAll
  static void stopHdfs() {
    if (hdfs != null) {
      hdfs.shutdown();
    }
  }

  @Test
  void onlyTheOwnerCanReadTheSecret() throws Exception {
    SessionAccess session = new SessionAccess(SESSION, "alice", SessionSecret.generate(), "test");
    as("alice", store -> {
      store.write(session);
      store.write(session); // an AM attempt writing it again replaces the file
      FileSystem fs = FileSystem.get(conf);
      Path file = store.path("alice", SESSION);
      assertEquals("/user/alice/.vivace/sessions/" + SESSION + ".secret", file.toUri().getPath());
      assertEquals(new FsPermission((short) 0600), fs.getFileStatus(file).getPermission());
      assertEquals("alice", fs.getFileStatus(file).getOwner());
      assertEquals(new FsPermission((short) 0700), fs.getFileStatus(store.folder("alice")).getPermission());
      assertEquals(1, fs.listStatus(store.folder("alice")).length, "only the secret, no temporary file");
      assertArrayEquals(session.secret().key(), store.read("alice", SESSION).secret().key());
      return null;
    });

    SessionAccessException refused = assertThrows(SessionAccessException.class,
        () -> as("bob", store -> store.read("alice", SESSION)));
    assertEquals("not allowed to use Vivace session " + SESSION + " of user alice: user bob may not read the "
        + "session's secret " + hdfs.getURI() + "/user/alice/.vivace/sessions/" + SESSION
        + ".secret (only the session's owner can)", refused.getMessage());

    IOException planted = assertThrows(IOException.class, () -> as("bob", store -> {
      store.write(new SessionAccess("application_1700000000000_0043", "alice", SessionSecret.generate(), "test"));
      return null;
    }));
    assertTrue(planted.getMessage().contains("Permission denied: user=bob"), planted.getMessage());

    as("alice", store -> {
      assertTrue(store.delete("alice", SESSION));
      assertFalse(FileSystem.get(conf).exists(store.path("alice", SESSION)));
      return null;
    });
  }

  private interface StoreAction<T> {
    T run(SessionSecretStore store) throws Exception;
  }

  private static <T> T as(String user, StoreAction<T> action) throws Exception {
    return UserGroupInformation.createRemoteUser(user).doAs(
        (PrivilegedExceptionAction<T>) () -> action.run(SessionSecretStore.forCluster(conf)));
  }

  /**
   * A private folder whose parents do not exist yet (a first session on a cluster whose homes folder
   * is not made): the parents get the file system's default permissions, so that other users can
   * still reach their own homes; only the folder itself is 0700.
   */
  @Test
  void aPrivateFoldersMissingParentsStayOpenToOtherUsers() throws Exception {
    FileSystem admin = hdfs.getFileSystem();
    Path folder = new Path("/fresh-homes/alice/.vivace/sessions");
    io.vivace.cluster.security.PrivateFolder.make(admin, folder);
    assertEquals(new FsPermission((short) 0700), admin.getFileStatus(folder).getPermission());
    assertEquals(new FsPermission((short) 0755), admin.getFileStatus(new Path("/fresh-homes")).getPermission());
    assertEquals(new FsPermission((short) 0755), admin.getFileStatus(new Path("/fresh-homes/alice/.vivace")).getPermission());
    admin.mkdirs(new Path("/fresh-homes/bob"));
    admin.setOwner(new Path("/fresh-homes/bob"), "bob", "users");
    Boolean reached = as("bob", store -> FileSystem.newInstance(conf).mkdirs(new Path("/fresh-homes/bob/.vivace")));
    assertTrue(reached, "bob reaches his own home through the folder alice's session made");
  }
}
