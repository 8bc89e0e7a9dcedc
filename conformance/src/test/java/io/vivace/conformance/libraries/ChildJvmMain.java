package io.vivace.conformance.libraries;

import io.vivace.conformance.Frameworks;
import java.nio.file.Path;
import java.util.Arrays;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * The entry point of a {@link ChildJvm}: {@code MODE FRAMEWORK SCRATCH MODULE PROGRAM args...};
 * exits with the program's status.
 */
public final class ChildJvmMain {

  private ChildJvmMain() {}

  public static void main(String[] args) throws Exception {
    ChildJvm.Mode mode = ChildJvm.Mode.valueOf(args[0]);
    String framework = args[1];
    Path scratch = Path.of(args[2]);
    String program = args[4];
    String[] programArgs = Arrays.copyOfRange(args, 5, args.length);
    int rc;
    if (mode == ChildJvm.Mode.JOB_JAR) {
      rc = JobJarRunner.run(framework, scratch, JobJar.of(args[3]), program, programArgs).exitCode();
    } else {
      Tool tool = (Tool) Class.forName(program).getDeclaredConstructor().newInstance();
      rc = ToolRunner.run(Frameworks.conf(framework, scratch), tool, programArgs);
    }
    System.exit(rc);
  }
}
