package io.vivace.fs.lustre;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.workloads.TestJobs;
import io.vivace.workloads.finra.FinraGen;
import io.vivace.workloads.finra.FinraQuery;
import io.vivace.workloads.finra.FinraReference;
import io.vivace.workloads.finra.QueryFilter;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.mapreduce.Job;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The lustre:// file system over a directory, on its own and under jobs on both engines. */
class LustreFileSystemTest {

  @TempDir
  java.nio.file.Path tmp;

  private Configuration conf(java.nio.file.Path root) {
    Configuration conf = new Configuration();
    conf.set(LustreSettings.ROOT, root.toString());
    conf.setBoolean("fs.lustre.impl.disable.cache", true);
    return conf;
  }

  private FileSystem lustre(Configuration conf) throws IOException {
    return FileSystem.get(URI.create("lustre:///"), conf);
  }

  @Test
  void createsListsRenamesAndDeletesFilesUnderTheRoot() throws Exception {
    java.nio.file.Path root = Files.createDirectories(tmp.resolve("mount"));
    FileSystem fs = lustre(conf(root));
    assertInstanceOf(LustreFileSystem.class, fs, "found through META-INF/services");

    try (FSDataOutputStream out = fs.create(new Path("lustre:///data/a.txt"))) {
      out.write("hello\n".getBytes(StandardCharsets.UTF_8));
    }
    assertEquals("hello\n", Files.readString(root.resolve("data/a.txt")), "a file of the mount");
    assertTrue(fs.mkdirs(new Path("/data/sub")));
    FileStatus[] listed = fs.listStatus(new Path("lustre:///data"));
    Arrays.sort(listed);
    assertEquals(List.of("lustre:/data/a.txt", "lustre:/data/sub"),
        Arrays.stream(listed).map(s -> s.getPath().toString()).toList());
    assertEquals(6, listed[0].getLen());
    assertTrue(listed[1].isDirectory());
    assertFalse(Files.exists(root.resolve("data/.a.txt.crc")), "no checksum files");

    assertTrue(fs.rename(new Path("/data/a.txt"), new Path("/data/sub/b.txt")));
    assertFalse(fs.exists(new Path("/data/a.txt")));
    assertEquals("hello\n", Files.readString(root.resolve("data/sub/b.txt")));
    try (var in = fs.open(new Path("/data/sub/b.txt"))) {
      assertEquals("hello\n", new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }

    assertTrue(fs.delete(new Path("/data"), true));
    assertFalse(Files.exists(root.resolve("data")));
    assertThrows(java.io.FileNotFoundException.class, () -> fs.getFileStatus(new Path("/data")));
    assertThrows(IllegalArgumentException.class, () -> fs.getFileStatus(new Path("/../escape")));
  }

  @Test
  void blockLocationsAreBlockSizedSlicesThatSplitsFollow() throws Exception {
    java.nio.file.Path root = Files.createDirectories(tmp.resolve("mount"));
    Configuration conf = conf(root);
    conf.setLong(LustreSettings.BLOCK_SIZE, 1000);
    FileSystem fs = lustre(conf);
    Files.write(root.resolve("f"), new byte[2500]);
    FileStatus status = fs.getFileStatus(new Path("/f"));
    assertEquals(1000, status.getBlockSize());

    BlockLocation[] blocks = fs.getFileBlockLocations(status, 0, status.getLen());
    assertEquals(List.of("0+1000", "1000+1000", "2000+500"), Arrays.stream(blocks)
        .map(b -> b.getOffset() + "+" + b.getLength()).toList());
    assertArrayEquals(new String[] {"localhost"}, blocks[0].getHosts());
    assertEquals(2, fs.getFileBlockLocations(status, 1500, 600).length, "the blocks overlapped");

    Job job = Job.getInstance(conf);
    FileInputFormat.addInputPath(job, new Path("lustre:///f"));
    assertEquals(3, new TextInputFormat().getSplits(job).size(), "one split per block");
  }

  @Test
  void aMissingOrUnsetRootIsAClearError() {
    IOException unset = assertThrows(IOException.class, () -> lustre(new Configuration() {{
      setBoolean("fs.lustre.impl.disable.cache", true);
    }}));
    assertTrue(unset.getMessage().contains(LustreSettings.ROOT + " is not set"), unset.getMessage());
    IOException missing = assertThrows(IOException.class,
        () -> lustre(conf(tmp.resolve("not-mounted"))));
    assertTrue(missing.getMessage().contains("no such directory"), missing.getMessage());
  }

  @Test
  void aStripeRequestIsRecordedAsNotAppliedWithoutTheToolAndFailsWhenRequiredOrRefused()
      throws Exception {
    java.nio.file.Path root = Files.createDirectories(tmp.resolve("mount"));
    Configuration conf = conf(root);
    assertEquals("none requested", ((LustreFileSystem) lustre(conf)).stripeStatus());

    conf.setInt(LustreSettings.STRIPE_COUNT, 4);
    conf.set(LustreSettings.STRIPE_SIZE, "4m");
    conf.set(LustreSettings.LFS, tmp.resolve("no-such-lfs").toString());
    LustreFileSystem fs = (LustreFileSystem) lustre(conf);
    assertTrue(fs.stripeStatus().startsWith("not applied: no "), fs.stripeStatus());
    assertEquals(16L << 20, fs.getDefaultBlockSize(new Path("/")), "stripe size x count");
    fs.create(new Path("/written")).close();
    assertTrue(Files.exists(root.resolve("written")), "files are still written");

    conf.setBoolean(LustreSettings.STRIPE_REQUIRED, true);
    IOException required = assertThrows(IOException.class, () -> lustre(conf));
    assertTrue(required.getMessage().contains("not applied"), required.getMessage());

    // An lfs that refuses (as on a mount that is not Lustre): creating a file fails with its status.
    conf.set(LustreSettings.LFS, "/bin/false");
    LustreFileSystem refusing = (LustreFileSystem) lustre(conf);
    assertTrue(refusing.stripeStatus().startsWith("applied with /bin/false"));
    IOException refused = assertThrows(IOException.class,
        () -> refusing.create(new Path("/striped")).close());
    assertTrue(refused.getMessage().contains("/bin/false setstripe -c 4 -S 4194304"),
        refused.getMessage());
  }

  @ParameterizedTest
  @ValueSource(strings = {"vivace", "local"})
  void aJobReadsAndWritesThroughLustre(String framework) throws Exception {
    java.nio.file.Path root = Files.createDirectories(tmp.resolve("mount"));
    Configuration conf = TestJobs.conf(framework, tmp.resolve("hadoop"));
    conf.set(LustreSettings.ROOT, root.toString());
    conf.setLong(LustreSettings.BLOCK_SIZE, 64 * 1024);
    // Hadoop caches a file system per scheme and user: each test's root is another directory.
    conf.setBoolean("fs.lustre.impl.disable.cache", true);

    assertEquals(0, TestJobs.run(conf, new FinraGen(), "-maps", "2", "200000", "lustre:///rows"));
    Job query = new FinraQuery() {{ setConf(conf); }}.createJob(QueryFilter.study(),
        new Path("lustre:///rows"), new Path("lustre:///result"));
    assertTrue(query.waitForCompletion(false));

    assertTrue(Files.exists(root.resolve("result/_SUCCESS")), "committed under the root");
    assertEquals(4, new TextInputFormat().getSplits(query).size(),
        "two files of ~100 KB in 64 KB blocks: four splits");
    List<String> expected = FinraReference.select(FileSystem.getLocal(conf),
        new Path(root.resolve("rows").toUri()), QueryFilter.study());
    assertEquals(expected, TestJobs.lines(root.resolve("result")));
  }
}
