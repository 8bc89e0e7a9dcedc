package io.vivace.workloads.plasma;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * Checks a Plasma sort's output against its input in one process: the same number of lines and
 * the same checksum, no malformed line, and every line in order within and across the part files.
 * Prints what it found; exit 0 when valid, 1 when not, 2 on bad usage.
 *
 * <pre>plasmavalidate IN OUT</pre>
 */
public class PlasmaValidate extends Configured implements Tool {

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new Configuration(), new PlasmaValidate(), args));
  }

  @Override
  public int run(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: plasmavalidate IN OUT");
      return 2;
    }
    String problem = problem(new Path(args[0]), new Path(args[1]));
    System.out.println(problem == null ? "plasmavalidate: OK" : "plasmavalidate: " + problem);
    return problem == null ? 0 : 1;
  }

  /** Null when {@code out} is {@code in} sorted, else what is wrong. */
  public String problem(Path in, Path out) throws IOException {
    PlasmaScan input = PlasmaScan.of(in.getFileSystem(getConf()), in);
    PlasmaScan output = PlasmaScan.of(out.getFileSystem(getConf()), out);
    if (output.misorder() != null) {
      return "output out of order: " + output.misorder();
    }
    if (output.malformed() > 0) {
      return output.malformed() + " malformed lines in the output";
    }
    if (output.lines() != input.lines() - input.malformed()) {
      return "output has " + output.lines() + " lines, the input " + input.lines()
          + (input.malformed() > 0 ? " of which " + input.malformed() + " malformed" : "");
    }
    if (input.malformed() == 0 && output.checksum() != input.checksum()) {
      return "output checksum " + Long.toHexString(output.checksum()) + " differs from the input's "
          + Long.toHexString(input.checksum());
    }
    return null;
  }
}
