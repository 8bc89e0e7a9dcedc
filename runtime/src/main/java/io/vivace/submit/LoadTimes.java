package io.vivace.submit;

/**
 * How long reading a submission back took, by part (ms): its configuration ({@code job.xml}), its
 * cache and class path files, its class path and sandbox, its splits; for the logs.
 */
public record LoadTimes(long confMillis, long resourcesMillis, long sandboxMillis, long splitsMillis) {

  public long totalMillis() {
    return confMillis + resourcesMillis + sandboxMillis + splitsMillis;
  }

  @Override
  public String toString() {
    return totalMillis() + " ms (configuration " + confMillis + ", files " + resourcesMillis + ", class path "
        + sandboxMillis + ", splits " + splitsMillis + ")";
  }
}
