package io.vivace.driver;

import java.io.IOException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;

/**
 * The data root. Each input lives in {@code <data root>/<key>}, generated once and reused while
 * the marker in it matches the generation parameters and the bytes on the file system; otherwise
 * the directory is deleted and generated again. Generated data whose size is not what was asked
 * for fails the prepare phase (and gets no marker).
 */
final class DataStore {

  private final Path root;
  private final Path seedRoot;
  private final String framework;
  private final WorkloadContext ctx;

  DataStore(DataRoots roots, String framework, WorkloadContext ctx) {
    this.root = roots.root();
    this.seedRoot = roots.seed();
    this.framework = framework;
    this.ctx = ctx;
  }

  /**
   * The input, reused when its marker matches, else copied from the seed root when that holds it
   * with a matching marker, else generated anew.
   */
  PreparedData prepare(InputData input) throws Exception {
    Path dir = new Path(root, input.key());
    FileSystem fs = dir.getFileSystem(ctx.conf());
    Reusable reusable = reusable(fs, dir, input);
    if (reusable.data() != null) {
      return reused(reusable);
    }
    PreparedData copied = copyFromSeed(input, fs, dir, reusable.stale());
    if (copied != null) {
      return copied;
    }
    ctx.progress("prepare: generating " + dir + ": " + reusable.stale());
    fs.delete(dir, true);
    long startMs = System.currentTimeMillis();
    input.generate(ctx, dir);
    long actualBytes = DataFiles.bytes(fs, input.files(dir));
    String mismatch = input.sizeMismatch(actualBytes);
    if (mismatch != null) {
      throw new PhaseFailedException("generated data in " + dir + ": " + mismatch);
    }
    InputData.Fingerprint fingerprint = input.fingerprint(ctx, dir);
    long endMs = System.currentTimeMillis();
    new DataMarker(input.key(), input.params(), input.requestedBytes(), actualBytes,
        fingerprint.checksum(), fingerprint.figures(), framework, endMs, endMs - startMs)
        .write(fs, dir);
    return new PreparedData(dir, input.requestedBytes(), actualBytes, false,
        fingerprint.checksum(), fingerprint.figures());
  }

  /**
   * The input as an earlier prepare left it, for runs that skip the prepare phase; fails when it
   * is not there to reuse (it is never generated here).
   */
  PreparedData find(InputData input) throws IOException, PhaseFailedException {
    Path dir = new Path(root, input.key());
    Reusable reusable = reusable(dir.getFileSystem(ctx.conf()), dir, input);
    if (reusable.data() == null) {
      throw new PhaseFailedException("the input " + dir + " cannot be reused: "
          + reusable.stale() + " (run the driver with --phases prepare first)");
    }
    return reused(reusable);
  }

  private PreparedData reused(Reusable reusable) {
    ctx.progress("prepare: reusing " + reusable.data().path() + " (" + reusable.generatedBy()
        + ")");
    return reusable.data();
  }

  /**
   * The seed root's copy of the input copied to {@code dir}, marker included, so that every
   * engine reads the same bytes whatever its file system; null when the seed root has none.
   */
  private PreparedData copyFromSeed(InputData input, FileSystem fs, Path dir, String stale)
      throws IOException, PhaseFailedException {
    if (seedRoot == null) {
      return null;
    }
    Path seedDir = new Path(seedRoot, input.key());
    FileSystem seedFs = seedDir.getFileSystem(ctx.conf());
    Reusable seed = reusable(seedFs, seedDir, input);
    if (seed.data() == null) {
      ctx.progress("prepare: not copying " + seedDir + ": " + seed.stale());
      return null;
    }
    ctx.progress("prepare: copying " + seedDir + " to " + dir + ": " + stale);
    fs.delete(dir, true);
    FileUtil.copy(seedFs, seedDir, fs, dir, false, ctx.conf());
    Reusable copy = reusable(fs, dir, input);
    if (copy.data() == null) {
      throw new PhaseFailedException("the copy of " + seedDir + " in " + dir + ": " + copy.stale());
    }
    PreparedData data = copy.data();
    return new PreparedData(data.path(), data.requestedBytes(), data.actualBytes(), false,
        data.checksum(), data.figures());
  }

  /** The reusable data, or why there is none. */
  private record Reusable(PreparedData data, String stale, String generatedBy) {}

  private Reusable reusable(FileSystem fs, Path dir, InputData input) {
    DataMarker marker = null;
    String stale;
    try {
      marker = DataMarker.read(fs, dir);
      stale = marker == null ? (fs.exists(dir) ? "it has no marker" : "it does not exist")
          : staleness(fs, dir, input, marker);
    } catch (IOException e) {
      stale = "its marker is unreadable (" + e.getMessage() + ")";
    }
    if (stale != null) {
      return new Reusable(null, stale, null);
    }
    return new Reusable(new PreparedData(dir, input.requestedBytes(), marker.actualBytes(), true,
        marker.checksum(), marker.figures()), null,
        marker.actualBytes() + " bytes, generated on " + marker.framework());
  }

  /** Why the marked data cannot be reused, or null when it can. */
  private static String staleness(FileSystem fs, Path dir, InputData input, DataMarker marker)
      throws IOException {
    if (!marker.key().equals(input.key()) || !marker.params().equals(input.params())
        || marker.requestedBytes() != input.requestedBytes()) {
      return "its marker's params " + marker.params() + " differ from " + input.params();
    }
    long actualBytes = DataFiles.bytes(fs, input.files(dir));
    if (actualBytes != marker.actualBytes()) {
      return "it holds " + actualBytes + " bytes, its marker says " + marker.actualBytes();
    }
    return null;
  }
}
