package io.vivace.conformance.libraries;

import io.vivace.conformance.Frameworks;
import io.vivace.conformance.OutputDirs;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hadoop library code that finds a job's classes by name with {@code Class.forName(String)}, which
 * works on YARN because the job jar is on the task JVM's system class path. The reference is
 * therefore Apache's LocalJobRunner in a JVM with the job jar and its libraries on its system class
 * path (under {@code hadoop jar} without them on {@code HADOOP_CLASSPATH}, Apache's own runner fails
 * these); Vivace runs the jar as {@code vivace jar} does, its libraries shipped with {@code -libjars}.
 */
@Tag("slow")
class ClassesByNameConformanceTest {

  @TempDir
  Path root;

  @Test
  void tupleWritablesOfTheJobsOwnValuesThroughTheShuffle() throws Exception {
    Path customers = Inputs.textFiles(root.resolve("customers"), 2, 300, 1,
        (random, i) -> "c" + random.nextInt(200) + ",name" + i);
    Path orders = Inputs.textFiles(root.resolve("orders"), 2, 500, 2,
        (random, i) -> "c" + random.nextInt(250) + ",order" + i);
    JobJar jar = JobJar.of("hadoop-library");
    String program = "io.vivace.jobs.library.ShuffledMapSideJoin";
    Path expected = root.resolve("out-reference");
    Path actual = root.resolve("out-" + Frameworks.underTest());
    ChildJvm.run(ChildJvm.Mode.SYSTEM_CLASS_PATH, Frameworks.REFERENCE, root.resolve("scratch-reference"), jar,
        program, customers.toString(), orders.toString(), expected.toString());
    JobJarRunner.run(Frameworks.underTest(), root.resolve("scratch-vivace"), jar, program,
        customers.toString(), orders.toString(), actual.toString()).assertSucceeded();
    for (String folder : new String[] {"customers", "orders", "joined"}) {
      OutputDirs.assertCommitted(actual.resolve(folder), program);
    }
    OutputTrees.assertSame(expected, actual, program);
  }
}
