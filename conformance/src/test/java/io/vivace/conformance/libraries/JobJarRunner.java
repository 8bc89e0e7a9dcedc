package io.vivace.conformance.libraries;

import io.vivace.conformance.Frameworks;
import io.vivace.conformance.Runs;
import io.vivace.driver.JobRecorder;
import io.vivace.driver.RecordedJob;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * Runs a program of a job jar in this JVM the way {@code hadoop jar job.jar Program -libjars ...}
 * runs it: the job jar and its libraries on a class loader of their own above this JVM's (what
 * {@code RunJar} makes, with the libraries on {@code HADOOP_CLASSPATH}), that loader as the thread's
 * context class loader, the program's {@link Tool} through {@link ToolRunner} with
 * {@code -libjars} naming the libraries so that the tasks get them. A new loader for every run, so
 * no run sees classes or static state of another, as no {@code hadoop jar} process would.
 */
public final class JobJarRunner {

  private JobJarRunner() {}

  /** Runs {@code program} (a {@link Tool} class of {@code jar}) on {@code framework}. */
  public static Runs.Result run(String framework, Path scratch, JobJar jar, String program, String... args)
      throws Exception {
    List<String> all = new ArrayList<>();
    if (!jar.libraries().isEmpty()) {
      all.add("-libjars");
      all.add(jar.libjars());
    }
    all.addAll(Arrays.asList(args));
    Thread thread = Thread.currentThread();
    ClassLoader previous = thread.getContextClassLoader();
    JobRecorder.drain();
    long start = System.nanoTime();
    int rc;
    try (URLClassLoader loader = new URLClassLoader(urls(jar), JobJarRunner.class.getClassLoader())) {
      thread.setContextClassLoader(loader);
      Configuration conf = Frameworks.conf(framework, scratch);
      Tool tool = (Tool) loader.loadClass(program).getDeclaredConstructor().newInstance();
      rc = ToolRunner.run(conf, tool, all.toArray(new String[0]));
    } finally {
      thread.setContextClassLoader(previous);
    }
    long millis = (System.nanoTime() - start) / 1_000_000;
    List<RecordedJob> jobs = JobRecorder.drain();
    String name = jar.module() + " " + program.substring(program.lastIndexOf('.') + 1) + " " + String.join(" ", args);
    System.out.printf("[conformance] %s on %s: exit %d in %d ms, jobs %s%n", name, framework, rc, millis, jobs);
    return new Runs.Result(framework, name, rc, jobs, millis);
  }

  private static URL[] urls(JobJar jar) throws MalformedURLException {
    List<URL> urls = new ArrayList<>();
    urls.add(jar.jar().toUri().toURL());
    for (Path library : jar.libraries()) {
      urls.add(library.toUri().toURL());
    }
    return urls.toArray(new URL[0]);
  }
}
