package io.vivace.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JIT options {@code ./vivace} gives the JVM (C2's compile thresholds), read back inside the
 * launched JVM from HotSpot's own flags, and the {@code VIVACE_JIT} and {@code VIVACE_OPTS}
 * settings that change them.
 */
@Tag("integration")
class LauncherJitTest {

  private static final List<String> THRESHOLDS = List.of("Tier4InvocationThreshold",
      "Tier4MinInvocationThreshold", "Tier4CompileThreshold", "Tier4BackEdgeThreshold");

  /** Prints each named HotSpot flag as name=value, a line each. */
  private static final String PRINT_FLAGS_SOURCE = """
      package launchertest;

      import com.sun.management.HotSpotDiagnosticMXBean;
      import java.lang.management.ManagementFactory;

      public class PrintFlags {
        public static void main(String[] args) {
          HotSpotDiagnosticMXBean hotspot =
              ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
          for (String name : args) {
            System.out.println(name + "=" + hotspot.getVMOption(name).getValue());
          }
        }
      }
      """;

  @TempDir
  static Path jarsDir;

  private static Path printFlagsJar;

  @TempDir
  Path workDir;

  @BeforeAll
  static void buildJar() throws IOException {
    Path classes = TestJars.compile(jarsDir, Map.of("launchertest.PrintFlags", PRINT_FLAGS_SOURCE));
    printFlagsJar = new TestJars.Builder().mainClass("launchertest.PrintFlags")
        .classes(classes, "").writeTo(jarsDir.resolve("print-flags.jar"));
  }

  private VivaceScript.Result printThresholds(VivaceScript vivace) throws Exception {
    String[] args = new String[THRESHOLDS.size() + 2];
    args[0] = "jar";
    args[1] = printFlagsJar.toString();
    for (int i = 0; i < THRESHOLDS.size(); i++) {
      args[i + 2] = THRESHOLDS.get(i);
    }
    VivaceScript.Result result = vivace.run(args);
    assertEquals(0, result.exitCode(), result.describe());
    return result;
  }

  @Test
  void jobsGetTheJvmsOwnThresholdsByDefault() throws Exception {
    assertEquals(List.of("Tier4InvocationThreshold=5000", "Tier4MinInvocationThreshold=600",
            "Tier4CompileThreshold=15000", "Tier4BackEdgeThreshold=40000"),
        printThresholds(new VivaceScript(workDir)).stdout().lines().toList());
  }

  @Test
  void vivaceJitTunedRaisesC2ThresholdsAHundredTimes() throws Exception {
    assertEquals(List.of("Tier4InvocationThreshold=500000", "Tier4MinInvocationThreshold=60000",
            "Tier4CompileThreshold=1500000", "Tier4BackEdgeThreshold=4000000"),
        printThresholds(new VivaceScript(workDir).env("VIVACE_JIT", "tuned"))
            .stdout().lines().toList());
  }

  @Test
  void vivaceOptsOverridesOneTunedThreshold() throws Exception {
    List<String> printed = printThresholds(new VivaceScript(workDir).env("VIVACE_JIT", "tuned")
        .env("VIVACE_OPTS", "-XX:Tier4InvocationThreshold=7000")).stdout().lines().toList();
    assertEquals("Tier4InvocationThreshold=7000", printed.get(0));
    assertEquals("Tier4BackEdgeThreshold=4000000", printed.get(3));
  }

  @Test
  void unknownVivaceJitFailsNamingTheVariable() throws Exception {
    VivaceScript.Result result = new VivaceScript(workDir).env("VIVACE_JIT", "fast")
        .run("jar", printFlagsJar.toString(), "Tier4InvocationThreshold");
    assertEquals(1, result.exitCode(), result.describe());
    assertTrue(result.stderr().contains("VIVACE_JIT must be tuned or jvm, not: fast"),
        result.describe());
    assertTrue(result.stdout().isEmpty(), result.describe());
  }
}
