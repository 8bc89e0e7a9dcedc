package io.vivace.cluster.security;

import java.io.IOException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * A folder on the cluster's file system that only its owner may enter ({@code 0700}), in a user's
 * home. Its missing parents are made with the file system's default permissions first, as
 * {@code hdfs dfs -mkdir -p} makes them: HDFS gives the parents a {@code mkdirs} makes the folder's
 * own permission, so a first session making {@code /user} with its private folder would shut every
 * other user out of their homes.
 */
public final class PrivateFolder {

  public static final FsPermission PERMISSION = new FsPermission((short) 0700);

  private PrivateFolder() {
  }

  /** Makes {@code folder} (and its missing parents), or tightens it, to {@code 0700}. */
  public static void make(FileSystem fs, Path folder) throws IOException {
    Path parent = folder.getParent();
    if (parent != null) {
      fs.mkdirs(parent);
    }
    fs.mkdirs(folder, PERMISSION);
    if (!fs.getFileStatus(folder).getPermission().equals(PERMISSION)) {
      fs.setPermission(folder, PERMISSION);
    }
  }
}
