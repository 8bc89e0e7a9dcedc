package io.vivace.driver.workloads;

import io.vivace.driver.DataFiles;
import io.vivace.driver.InputData;
import io.vivace.driver.Param;
import io.vivace.driver.Params;
import io.vivace.driver.Phase;
import io.vivace.driver.Validation;
import io.vivace.driver.WorkloadContext;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.mahout.classifier.naivebayes.BayesUtils;
import org.apache.mahout.classifier.naivebayes.NaiveBayesModel;
import org.apache.mahout.classifier.naivebayes.training.TrainNaiveBayesJob;
import org.apache.mahout.vectorizer.SparseVectorsFromSequenceFiles;

/**
 * HiBench's {@code bayes} as it runs on Apache Hadoop: Apache Mahout 0.13.0's (the last Mahout
 * with MapReduce programs) {@code seq2sparse} (TF-IDF, log-normalised, named vectors, {@code
 * ngrams}-grams, {@code reduces} reduces) then {@code trainnb} (naive Bayes) on BayesGen's labelled
 * documents; defaults are HiBench's tiny profile. Validated by reading the model back with Mahout:
 * every label of the input in its label index, a weight for each, features found.
 */
final class BayesWorkload extends ParamsWorkload {

  static final String NAME = "bayes";
  static final String DESCRIPTION = "Mahout's naive Bayes as HiBench's bayes runs it (seq2sparse,"
      + " trainnb) on generated labelled documents; the model read back and checked";
  // HiBench's profiles: small pages=30000 classes=100 ngrams=2, large pages=100000 classes=100
  // ngrams=2, huge pages=500000 classes=100 ngrams=2.
  static final List<Param> PARAMS = List.of(
      Param.integer("pages", 25_000, 1, "documents", "documents to generate"),
      Param.integer("classes", 10, 1, "", "labels the documents are drawn from"),
      Param.integer("ngrams", 1, 1, "", "longest n-gram seq2sparse makes (-ng)"),
      SharedParams.maps(), SharedParams.reduces(), SharedParams.seed());

  private Path model;
  private Path labelIndex;

  BayesWorkload(Params params) {
    super(NAME, params);
  }

  @Override
  public InputData input() {
    return new BayesInput(params.get("pages"), params.get("classes"), params.get("maps"), params.get("seed"));
  }

  @Override
  public void run(WorkloadContext ctx) throws Exception {
    Path vectors = ctx.workPath("vectors");
    model = ctx.workPath("model");
    labelIndex = ctx.workPath("labelindex");
    ctx.runTool(Phase.RUN, "seq2sparse", new SparseVectorsFromSequenceFiles(), Map.of(),
        "-Dmapreduce.output.fileoutputformat.compress=false", "-i", ctx.data().path().toString(),
        "-o", vectors.toString(), "-lnorm", "-nv", "-wt", "tfidf", "-ng", Long.toString(params.get("ngrams")),
        "--numReducers", Long.toString(params.get("reduces")));
    ctx.runTool(Phase.RUN, "trainnb", new TrainNaiveBayesJob(), Map.of(),
        "-Dmapreduce.output.fileoutputformat.compress=false", "-i", new Path(vectors, "tfidf-vectors").toString(),
        "-o", model.toString(), "-li", labelIndex.toString(), "-ow", "--tempDir", ctx.workPath("temp").toString());
  }

  @Override
  public Validation validate(WorkloadContext ctx) throws Exception {
    FileSystem fs = model.getFileSystem(ctx.conf());
    long outputBytes = DataFiles.bytes(fs, model);
    NaiveBayesModel trained = NaiveBayesModel.materialize(model, ctx.conf());
    Map<Integer, String> labels = BayesUtils.readLabelIndex(ctx.conf(), labelIndex);
    long classes = params.get("classes");
    if (trained.numLabels() != labels.size() || labels.size() > classes || labels.isEmpty()) {
      return Validation.failed("bayes: a model of " + trained.numLabels() + " labels, " + labels.size()
          + " in the label index, for " + classes + " classes", null, outputBytes);
    }
    for (int label = 0; label < trained.numLabels(); label++) {
      if (!(trained.labelWeight(label) > 0)) {
        return Validation.failed("bayes: label " + labels.get(label) + " has weight " + trained.labelWeight(label),
            null, outputBytes);
      }
    }
    if (!(trained.numFeatures() > 0)) {
      return Validation.failed("bayes: a model without features", null, outputBytes);
    }
    return Validation.passed("bayes: a model of " + trained.numLabels() + " labels (every one of the label index,"
        + " each with a weight) over " + (long) trained.numFeatures() + " features", null, outputBytes);
  }
}
