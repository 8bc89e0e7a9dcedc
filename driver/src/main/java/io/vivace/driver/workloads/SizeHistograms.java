package io.vivace.driver.workloads;

import io.vivace.workloads.swim.Scale;
import io.vivace.workloads.swim.TraceJob;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Counts of a whole trace's job sizes at a scale, before the clamps, in decades: bin 0 holds
 * jobs of 0 bytes, bin k (1..16) those of [10^(k-1), 10^k) bytes; sizes of 10^16 or more go to
 * the last bin. The lab draws the replayed jobs against them.
 */
final class SizeHistograms {

  static final int BINS = 17;

  private SizeHistograms() {}

  static Map<String, Object> of(List<TraceJob> trace, Scale scale) {
    long[] input = new long[BINS];
    long[] shuffle = new long[BINS];
    long[] output = new long[BINS];
    long[] inputOutput = new long[BINS];
    for (TraceJob job : trace) {
      long in = scale.apply(job.inputBytes());
      long out = scale.apply(job.outputBytes());
      input[bin(in)]++;
      shuffle[bin(scale.apply(job.shuffleBytes()))]++;
      output[bin(out)]++;
      inputOutput[bin(in + out)]++;
    }
    Map<String, Object> histograms = new LinkedHashMap<>();
    histograms.put("bins", "0: 0 bytes; k >= 1: [10^(k-1), 10^k) bytes");
    histograms.put("input", input);
    histograms.put("shuffle", shuffle);
    histograms.put("output", output);
    histograms.put("input_output", inputOutput);
    return histograms;
  }

  static int bin(long bytes) {
    if (bytes <= 0) {
      return 0;
    }
    return Math.min(BINS - 1, Long.toString(bytes).length());
  }
}
