package io.vivace.conformance.libraries;

import static io.vivace.conformance.libraries.Pipeline.args;
import static io.vivace.conformance.libraries.Pipeline.step;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Apache Mahout 0.13.0's MapReduce programs (mahout-mr, the last Mahout with them), run from their
 * own jars shipped with {@code -libjars} on Apache's LocalJobRunner and on Vivace: every output and
 * intermediate file the same.
 */
@Tag("slow")
class MahoutConformanceTest {

  private static final JobJar JAR = JobJar.of("mahout");

  @TempDir
  Path root;

  /**
   * The item-based recommender: a chain of about ten jobs whose values are Mahout's
   * {@code VectorWritable}s. It once failed on Vivace at its eighth job with "VectorWritable cannot
   * be cast to VectorWritable" (a worker's loader and the job's each defined the class).
   */
  @Test
  void itemBasedRecommender() throws Exception {
    Set<String> rated = new HashSet<>();
    Path ratings = Inputs.textFiles(root.resolve("ratings"), 3, 1_500, 7, (random, i) -> {
      String pair;
      do {
        pair = (1 + random.nextInt(200)) + "," + (1 + (int) Math.floor(Math.pow(random.nextDouble(), 2) * 300));
      } while (!rated.add(pair));
      return pair + "," + (100 + random.nextInt(401)) / 100.0;
    });
    Pipeline.run(root, JAR,
        step("org.apache.mahout.cf.taste.hadoop.item.RecommenderJob", side -> args(
            "--input", ratings, "--output", side.resolve("recommendations"), "--tempDir", side.resolve("temp"),
            "--similarityClassname", "SIMILARITY_LOGLIKELIHOOD", "--numRecommendations", 1000,
            "--maxSimilaritiesPerItem", 1000)))
        .assertSameLines("recommendations", Pipeline.eachLine(MahoutConformanceTest::byScoreThenItem))
        .assertEqualRecordsTree("temp", "org.apache.mahout.math.VectorWritable", MahoutConformanceTest::canonical);
  }

  /**
   * Naive Bayes as HiBench's {@code bayes} runs it on Apache Hadoop (seq2sparse with TF-IDF,
   * normalised, named vectors; trainnb), after seqdirectory turned a folder of documents per label
   * into a SequenceFile; then testnb classifies the training vectors with the model.
   */
  @Test
  void naiveBayes() throws Exception {
    Path documents = documents(root.resolve("documents"), 4, 30, 11);
    Pipeline.Outcome outcome = Pipeline.run(root, JAR,
        step("org.apache.mahout.text.SequenceFilesFromDirectory", side -> args(
            "-i", documents, "-o", side.resolve("sequences"), "-xm", "mapreduce")),
        step("org.apache.mahout.vectorizer.SparseVectorsFromSequenceFiles", side -> args(
            "-Dmapreduce.output.fileoutputformat.compress=false", "-i", side.resolve("sequences"),
            "-o", side.resolve("vectors"), "-lnorm", "-nv", "-wt", "tfidf", "-ng", 2, "--numReducers", 2)),
        step("org.apache.mahout.classifier.naivebayes.training.TrainNaiveBayesJob", side -> args(
            "-Dmapreduce.output.fileoutputformat.compress=false", "-i", side.resolve("vectors/tfidf-vectors"),
            "-o", side.resolve("model"), "-li", side.resolve("labelindex"), "-ow", "--tempDir", side.resolve("temp"))),
        step("org.apache.mahout.classifier.naivebayes.test.TestNaiveBayesDriver", side -> args(
            "-i", side.resolve("vectors/tfidf-vectors"), "-m", side.resolve("model"), "-l", side.resolve("labelindex"),
            "-ow", "-o", side.resolve("classified"), "--tempDir", side.resolve("temp-test"))))
        .assertSameTree("sequences")
        .assertSameTree("vectors")
        .assertSameTree("labelindex")
        .assertEqualRecordsTree("temp", null, MahoutConformanceTest::canonical);
    assertEqualModels(outcome, "model");
    outcome.assertSameTree("classified");
  }

  /**
   * trainnb's model (the folder of its {@code naiveBayesModel.bin}), read with Mahout's own {@code NaiveBayesModel}:
   * the same labels, features and weights. Its bytes hold vectors in the order their entries were
   * set, which follows the order the reduce received its values.
   */
  private static void assertEqualModels(Pipeline.Outcome outcome, String relative) throws IOException {
    outcome.withJobClasses(() -> {
      Object expected = materialize(outcome.reference().resolve(relative));
      Object actual = materialize(outcome.underTest().resolve(relative));
      int labels = (int) call(expected, "numLabels");
      int features = (int) (double) call(expected, "numFeatures");
      assertEquals(labels, (int) call(actual, "numLabels"), "labels");
      assertEquals(features, (int) (double) call(actual, "numFeatures"), "features");
      assertEquals(call(expected, "alphaI"), call(actual, "alphaI"), "alphaI");
      assertEquals(call(expected, "totalWeightSum"), call(actual, "totalWeightSum"), "total weight");
      for (int label = 0; label < labels; label++) {
        assertEquals(call(expected, "labelWeight", label), call(actual, "labelWeight", label), "weight of label " + label);
        for (int feature = 0; feature < features; feature++) {
          assertEquals(call(expected, "weight", label, feature), call(actual, "weight", label, feature),
              "weight of label " + label + ", feature " + feature);
        }
      }
      for (int feature = 0; feature < features; feature++) {
        assertEquals(call(expected, "featureWeight", feature), call(actual, "featureWeight", feature), "weight of feature " + feature);
      }
      String file = relative + "/naiveBayesModel.bin";
      if (Files.mismatch(outcome.reference().resolve(file), outcome.underTest().resolve(file)) >= 0) {
        System.out.printf("[conformance] %s: equal models (%d labels, %d features) in other bytes%n", file, labels, features);
      }
    });
  }

  private static Object materialize(Path model) throws IOException {
    try {
      Class<?> c = Class.forName("org.apache.mahout.classifier.naivebayes.NaiveBayesModel", true,
          Thread.currentThread().getContextClassLoader());
      return c.getMethod("materialize", org.apache.hadoop.fs.Path.class, Configuration.class)
          .invoke(null, new org.apache.hadoop.fs.Path(model.toUri()), new Configuration());
    } catch (ReflectiveOperationException e) {
      throw new IOException("cannot read " + model + " with Mahout's NaiveBayesModel", e);
    }
  }

  /** {@code target.method(args)} through reflection: Mahout's classes are the job jar's. */
  private static Object call(Object target, String method, int... args) {
    try {
      Class<?>[] types = new Class<?>[args.length];
      Arrays.fill(types, int.class);
      Object[] values = Arrays.stream(args).boxed().toArray();
      java.lang.reflect.Method m = target.getClass().getMethod(method, types);
      m.setAccessible(true);
      return m.invoke(target, values);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(method + " of " + target.getClass(), e);
    }
  }

  /**
   * Mahout's writables in a form whose {@code equals} ignores the order a reduce met its values
   * in: a vector ({@code VectorWritable}) as its entries by index (its bytes list them in the order
   * they were set); the recommender's {@code VectorAndPrefsWritable} as its vector and its users'
   * preferences by user (two lists in the order the reduce received them). Anything else as it is.
   */
  static Object canonical(Object writable) {
    String type = writable.getClass().getSimpleName();
    if (type.equals("VectorWritable")) {
      return entries(call(writable, "get"));
    }
    if (type.equals("VectorAndPrefsWritable")) {
      List<?> users = (List<?>) call(writable, "getUserIDs");
      List<?> prefs = (List<?>) call(writable, "getValues");
      Map<Object, Object> prefsByUser = new TreeMap<>();
      for (int i = 0; i < users.size(); i++) {
        prefsByUser.put(users.get(i), prefs.get(i));
      }
      return List.of(entries(call(writable, "getVector")), prefsByUser);
    }
    return writable;
  }

  /** A Mahout vector's non-zero entries by index (NaN equal to NaN, as Double.equals has it). */
  private static Map<Integer, Double> entries(Object vector) {
    Map<Integer, Double> entries = new TreeMap<>();
    for (Object element : (Iterable<?>) call(vector, "nonZeroes")) {
      entries.put((Integer) call(element, "index"), (Double) call(element, "get"));
    }
    return entries;
  }

  /**
   * A line of the recommender's output, {@code user<TAB>[item:score,...]}, with its items ordered
   * by score, then item: the recommender lists items of equal score in the order it met them.
   */
  static String byScoreThenItem(String line) {
    int tab = line.indexOf('\t');
    String list = line.substring(tab + 2, line.length() - 1);
    return line.substring(0, tab + 1) + Arrays.stream(list.split(","))
        .sorted(Comparator.comparing((String r) -> -Float.parseFloat(r.substring(r.indexOf(':') + 1)))
            .thenComparing(r -> Long.parseLong(r.substring(0, r.indexOf(':')))))
        .collect(Collectors.joining(",", "[", "]"));
  }

  /**
   * {@code perLabel} text documents under {@code dir/<label>/} for each of {@code labels} labels,
   * each label's words drawn mostly from a vocabulary of its own.
   */
  static Path documents(Path dir, int labels, int perLabel, long seed) {
    Random random = new Random(seed);
    try {
      for (int l = 0; l < labels; l++) {
        Path folder = Files.createDirectories(dir.resolve("label" + l));
        for (int d = 0; d < perLabel; d++) {
          int words = 40 + random.nextInt(120);
          List<String> text = new ArrayList<>();
          StringBuilder line = new StringBuilder();
          for (int w = 0; w < words; w++) {
            int vocabulary = random.nextInt(4) == 0 ? labels : l;
            line.append("w").append(vocabulary).append('x').append((int) (Math.pow(random.nextDouble(), 3) * 200)).append(' ');
            if (line.length() > 70) {
              text.add(line.toString().trim());
              line.setLength(0);
            }
          }
          text.add(line.toString().trim());
          Files.write(folder.resolve("doc" + d + ".txt"), text, StandardCharsets.UTF_8);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return dir;
  }
}
