package io.vivace.cluster.security;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The secret file on a real local file system, through Hadoop's FileSystem API. */
class SessionSecretStoreTest {

  private static final String SESSION = "application_1700000000000_0003";

  @TempDir
  java.nio.file.Path homes;

  private String owner;
  private SessionSecretStore store;
  private SessionAccess session;

  @BeforeEach
  void setUp() throws IOException {
    Configuration conf = new Configuration(false);
    conf.set("fs.defaultFS", "file:///");
    conf.set(SessionSecretStore.HOMES_KEY, homes.toString());
    store = SessionSecretStore.forCluster(conf);
    owner = UserGroupInformation.getCurrentUser().getShortUserName();
    session = new SessionAccess(SESSION, owner, SessionSecret.generate(), "test");
  }

  @Test
  void theSecretIsStoredInTheOwnersHomeReadableOnlyByTheOwner() throws IOException {
    store.write(session);
    java.nio.file.Path folder = homes.resolve(owner).resolve(".vivace").resolve("sessions");
    java.nio.file.Path file = folder.resolve(SESSION + ".secret");
    assertEquals(new Path("file:" + file), store.path(owner, SESSION));
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(folder)));
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(
        folder.resolve("." + SESSION + ".secret.crc"))));
    // Hadoop's local file system keeps a checksum next to the file: nothing else is left behind.
    assertEquals(List.of("." + SESSION + ".secret.crc", SESSION + ".secret"), names(folder));

    SessionAccess read = store.read(owner, SESSION);
    assertArrayEquals(session.secret().key(), read.secret().key());
    assertEquals(SESSION, read.sessionId());
    assertEquals(owner, read.owner());
    assertEquals("the session's secret is readable only by its owner: file:" + file, read.secretOrigin());
  }

  @Test
  void writingAgainReplacesTheFileWhole() throws IOException {
    store.write(session);
    SessionAccess again = new SessionAccess(SESSION, owner, SessionSecret.generate(), "test");
    store.write(again);
    assertArrayEquals(again.secret().key(), store.read(owner, SESSION).secret().key());
    assertEquals(2, names(homes.resolve(owner).resolve(".vivace").resolve("sessions")).size());
  }

  @Test
  void aStoppedSessionHasNoSecret() throws IOException {
    store.write(session);
    assertTrue(store.delete(owner, SESSION));
    FileNotFoundException e = assertThrows(FileNotFoundException.class, () -> store.read(owner, SESSION));
    assertEquals("Vivace session " + SESSION + " of user " + owner + " has no readable secret at "
        + store.path(owner, SESSION) + ": the session has stopped or never started", e.getMessage());
    assertFalse(store.delete(owner, SESSION));
  }

  @Test
  void aFileThatIsNoSecretGivesAClearError() throws IOException {
    store.write(session);
    Files.writeString(homes.resolve(owner).resolve(".vivace/sessions/" + SESSION + ".secret"), "not base64 !\n");
    Files.deleteIfExists(homes.resolve(owner).resolve(".vivace/sessions/." + SESSION + ".secret.crc"));
    IOException e = assertThrows(IOException.class, () -> store.read(owner, SESSION));
    assertTrue(e.getMessage().startsWith(store.path(owner, SESSION) + " does not hold a Vivace session secret: "),
        e.getMessage());
  }

  @Test
  void aLooseFolderIsTightenedBeforeTheSecretGoesIn() throws IOException {
    java.nio.file.Path folder = Files.createDirectories(homes.resolve(owner).resolve(".vivace/sessions"));
    Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwxrwxrwx"));
    store.write(session);
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(folder)));
  }

  /** As root (the only way to hand a folder to another user here): a folder of someone else's is refused. */
  @Test
  void aFolderOfAnotherUserIsRefused() throws IOException {
    assumeTrue(owner.equals("root"), "only root can give a folder to another user");
    java.nio.file.Path folder = Files.createDirectories(homes.resolve(owner).resolve(".vivace/sessions"));
    FileSystem fs = FileSystem.getLocal(new Configuration(false));
    fs.setOwner(new Path(folder.toString()), "nobody", null);
    FileStatus status = fs.getFileStatus(new Path(folder.toString()));
    assumeTrue(status.getOwner().equals("nobody"), "the folder could not be given to user nobody");
    AccessControlException e = assertThrows(AccessControlException.class, () -> store.write(session));
    assertEquals("not storing the secret of Vivace session " + SESSION + " of user root in " + store.folder(owner)
        + ": the folder belongs to user nobody, not to the session's owner", e.getMessage());
    assertEquals(List.of(), names(folder));
  }

  private static List<String> names(java.nio.file.Path folder) throws IOException {
    try (Stream<java.nio.file.Path> files = Files.list(folder)) {
      return files.map(f -> f.getFileName().toString()).sorted().toList();
    }
  }
}
