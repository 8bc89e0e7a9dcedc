package io.vivace.cluster.client;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the sessions this user's clients found were, remembered on the client's disk for the next
 * JVMs ({@code ~/.vivace/sessions/}, one file per session key): a cold client tries the remembered
 * address before asking YARN. Only the address is kept (application, owner, host, port), never the
 * secret, which is read from the cluster's file system as after a lookup; a remembered session is
 * used only once it answers a call authenticated with that secret.
 *
 * <p>The folder is {@code 0700} and each file {@code 0600}, written to a temporary file and renamed.
 * A file is believed only if it and its folder belong to the user running the client and no one
 * else may write them, as an address that someone else chose could send the client's jobs to them.
 */
final class SessionAddresses {

  private static final Logger LOG = LoggerFactory.getLogger(SessionAddresses.class);
  private static final Set<PosixFilePermission> OWNER_ONLY_FOLDER = PosixFilePermissions.fromString("rwx------");
  private static final Set<PosixFilePermission> OWNER_ONLY_FILE = PosixFilePermissions.fromString("rw-------");

  /** A session as a client found it. */
  record Remembered(String application, String owner, InetSocketAddress address) {
  }

  /** Remembers nothing: every cold client asks YARN. */
  static final SessionAddresses NONE = new SessionAddresses(null);

  private final Path folder;

  SessionAddresses(Path folder) {
    this.folder = folder;
  }

  /** The calling user's, in {@code ~/.vivace/sessions}. */
  static SessionAddresses inUserHome() {
    return new SessionAddresses(Path.of(System.getProperty("user.home"), ".vivace", "sessions"));
  }

  /** The session remembered for {@code key}, if one is and its file may be believed. */
  Optional<Remembered> recall(String key) {
    if (folder == null) {
      return Optional.empty();
    }
    Path file = file(key);
    try {
      if (!ownedAndPrivate(folder) || !ownedAndPrivate(file)) {
        LOG.warn("Ignoring " + file + ": it or its folder may be written by another user than "
            + System.getProperty("user.name"));
        return Optional.empty();
      }
      Properties p = load(file);
      if (!key.equals(p.getProperty("key"))) {
        return Optional.empty();
      }
      return Optional.of(new Remembered(p.getProperty("application"), p.getProperty("owner"),
          new InetSocketAddress(p.getProperty("host"), Integer.parseInt(p.getProperty("port")))));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException | RuntimeException e) {
      LOG.info("Cannot read the session remembered in " + file + " (" + e + "); YARN is asked");
      return Optional.empty();
    }
  }

  /** Remembers {@code session} for {@code key}; a failure to write is logged, as the client works without. */
  void remember(String key, Remembered session) {
    if (folder == null) {
      return;
    }
    Path file = file(key);
    Properties p = new Properties();
    p.setProperty("key", key);
    p.setProperty("application", session.application());
    p.setProperty("owner", session.owner());
    p.setProperty("host", session.address().getHostString());
    p.setProperty("port", Integer.toString(session.address().getPort()));
    try {
      Files.createDirectories(folder, PosixFilePermissions.asFileAttribute(OWNER_ONLY_FOLDER));
      Files.setPosixFilePermissions(folder, OWNER_ONLY_FOLDER);
      Path temporary = Files.createTempFile(folder, ".remember-", ".tmp",
          PosixFilePermissions.asFileAttribute(OWNER_ONLY_FILE));
      try {
        try (OutputStream out = Files.newOutputStream(temporary)) {
          p.store(new OutputStreamWriter(out, StandardCharsets.UTF_8), "a Vivace session a client found");
        }
        moveInPlace(temporary, file);
      } finally {
        Files.deleteIfExists(temporary);
      }
    } catch (IOException | UnsupportedOperationException e) {
      LOG.info("Cannot remember the session in " + file + " (" + e + "); the next client asks YARN");
    }
  }

  /** Forgets the session remembered for {@code key}. */
  void forget(String key) {
    if (folder != null) {
      deleteQuietly(file(key));
    }
  }

  /** Forgets every key that remembers {@code application} (it was stopped). */
  void forgetApplication(String application) {
    if (folder == null || !Files.isDirectory(folder)) {
      return;
    }
    try (Stream<Path> files = Files.list(folder)) {
      files.filter(f -> !f.getFileName().toString().startsWith(".")).forEach(f -> {
        try {
          if (application.equals(load(f).getProperty("application"))) {
            deleteQuietly(f);
          }
        } catch (IOException | IllegalArgumentException e) {
          // not a file of ours, or half-written by another client: left alone
        }
      });
    } catch (IOException e) {
      LOG.info("Cannot list " + folder + " (" + e + ")");
    }
  }

  Path file(String key) {
    return folder.resolve(digest(key));
  }

  private static Properties load(Path file) throws IOException {
    Properties p = new Properties();
    try (InputStream in = Files.newInputStream(file)) {
      p.load(new InputStreamReader(in, StandardCharsets.UTF_8));
    }
    return p;
  }

  private static void moveInPlace(Path from, Path to) throws IOException {
    try {
      Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  private static boolean ownedAndPrivate(Path path) throws IOException {
    PosixFileAttributes attributes = Files.readAttributes(path, PosixFileAttributes.class,
        LinkOption.NOFOLLOW_LINKS);
    Set<PosixFilePermission> permissions = attributes.permissions();
    return attributes.owner().getName().equals(System.getProperty("user.name"))
        && !permissions.contains(PosixFilePermission.GROUP_WRITE)
        && !permissions.contains(PosixFilePermission.OTHERS_WRITE);
  }

  private static void deleteQuietly(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      LOG.info("Cannot delete " + file + " (" + e + ")");
    }
  }

  private static String digest(String key) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
