package io.vivace.cli;

import java.nio.file.Path;
import java.util.Arrays;

/**
 * {@code jar JAR [MainClass] [args...]}: runs a job jar as {@code hadoop jar} does. As there, the
 * manifest's Main-Class wins; the argument after the jar names the main class only when the
 * manifest has none, and every other argument goes to the program unchanged. Its jobs run on
 * Vivace unless the command line names another framework ({@link VivaceFramework}).
 */
final class JarCommand {

  void run(String[] args) throws LaunchException, MainThrewException {
    if (args.length == 0) {
      throw new LaunchException(VivaceCli.USAGE);
    }
    JobJar jar = JobJar.open(Path.of(args[0]));
    VivaceFramework.makeDefault();
    int programArgsStart = 1;
    String mainClassName = jar.manifestMainClass().orElse(null);
    if (mainClassName == null) {
      if (args.length < 2) {
        throw new LaunchException("No Main-Class in the manifest of " + jar.path()
            + "; name the main class after the jar.\n" + VivaceCli.USAGE);
      }
      mainClassName = args[programArgsStart++];
    }
    ClassLoader loader = JobClassLoader.create(jar, VivaceCli.class.getClassLoader());
    ClientWarmUp.startBeside(loader);
    String[] programArgs = Arrays.copyOfRange(args, programArgsStart, args.length);
    MainMethod.find(loader, mainClassName.replace('/', '.')).invoke(programArgs);
  }
}
