package io.vivace.workloads.finra;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The issue symbols of the audit trail and their skewed popularity: {@value #COUNT} symbols of 2
 * to 4 capital letters, the symbol of rank {@code r} (from 1) drawn with probability proportional
 * to {@code 1 / r} (Zipf, exponent 1). {@value #STUDY_SYMBOL}, the study's query symbol, is rank
 * {@value #STUDY_SYMBOL_RANK}: about 1.2% of the rows. The same list on every machine.
 */
public final class Symbols {

  public static final int COUNT = 3_000;
  public static final String STUDY_SYMBOL = "XLP";
  public static final int STUDY_SYMBOL_RANK = 10;

  private final String[] byRank;
  private final double[] cumulative;

  public Symbols() {
    SplittableRandom random = new SplittableRandom(0x5EED);
    Set<String> symbols = new LinkedHashSet<>();
    while (symbols.size() < COUNT - 1) {
      int length = 2 + random.nextInt(3);
      StringBuilder symbol = new StringBuilder(length);
      for (int i = 0; i < length; i++) {
        symbol.append((char) ('A' + random.nextInt(26)));
      }
      if (!symbol.toString().equals(STUDY_SYMBOL)) {
        symbols.add(symbol.toString());
      }
    }
    List<String> ranked = new ArrayList<>(symbols);
    ranked.add(STUDY_SYMBOL_RANK - 1, STUDY_SYMBOL);
    byRank = ranked.toArray(new String[0]);
    cumulative = new double[COUNT];
    double sum = 0;
    for (int rank = 1; rank <= COUNT; rank++) {
      sum += 1.0 / rank;
      cumulative[rank - 1] = sum;
    }
    for (int i = 0; i < COUNT; i++) {
      cumulative[i] /= sum;
    }
  }

  String draw(SplittableRandom random) {
    double u = random.nextDouble();
    int low = 0;
    int high = COUNT - 1;
    while (low < high) {
      int mid = (low + high) >>> 1;
      if (cumulative[mid] <= u) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return byRank[low];
  }

  /** The probability of the symbol of {@code rank} (from 1). */
  double probability(int rank) {
    return cumulative[rank - 1] - (rank == 1 ? 0 : cumulative[rank - 2]);
  }
}
