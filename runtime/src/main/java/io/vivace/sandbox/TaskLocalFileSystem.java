package io.vivace.sandbox;

import java.io.File;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;

/**
 * Hadoop's local file system whose relative paths resolve in the working directory of the task
 * calling it (its {@link TaskScope}), and in its own working directory outside tasks. A job's
 * identity holds one, so that {@code new Path("side-file")} and {@code new File("side-file")} are the
 * same file in a task, as in a YARN container.
 */
public final class TaskLocalFileSystem extends LocalFileSystem {

  private static final String IMPL = "fs.file.impl";

  public TaskLocalFileSystem() {
    super(new Raw());
  }

  /**
   * Makes this the local file system of the calling user identity (a job's) and returns it: the
   * first one made for an identity is the one Hadoop's cache gives it from then on, whatever
   * configuration asks. The job's configuration is left as it was (the key that chooses the class
   * is set only while it is made).
   */
  public static LocalFileSystem installFor(Configuration jobConf) throws IOException {
    String previous = jobConf.getRaw(IMPL);
    jobConf.setClass(IMPL, TaskLocalFileSystem.class, FileSystem.class);
    LocalFileSystem fs;
    try {
      fs = FileSystem.getLocal(jobConf);
    } finally {
      if (previous == null) {
        jobConf.unset(IMPL);
      } else {
        jobConf.set(IMPL, previous);
      }
    }
    if (!(fs instanceof TaskLocalFileSystem)) {
      throw new IOException("the job's local file system was made before its sandbox: " + fs.getClass().getName());
    }
    return fs;
  }

  private static final class Raw extends RawLocalFileSystem {
    @Override
    public Path getWorkingDirectory() {
      TaskScope scope = TaskScope.current();
      return scope == null ? super.getWorkingDirectory() : new Path(scope.workDirPath().toURI());
    }

    @Override
    public File pathToFile(Path path) {
      if (!path.isAbsolute()) {
        TaskScope scope = TaskScope.current();
        if (scope != null) {
          checkPath(path);
          return new File(scope.workDir(), path.toUri().getPath());
        }
      }
      return super.pathToFile(path);
    }
  }
}
