package io.vivace.driver.session;

import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.metrics2.AbstractMetric;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.impl.MetricsCollectorImpl;
import org.apache.hadoop.metrics2.impl.MetricsRecordImpl;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;

/**
 * Calls a Hadoop RPC server of the mini-cluster (the NameNode's, the ResourceManager's client
 * service) has served so far, by method, read from the server's own detailed RPC metrics.
 */
final class RpcCalls {

  private RpcCalls() {
  }

  /** Method name -> calls served by the RPC server on {@code port}. */
  static Map<String, Long> byMethod(int port) {
    Map<String, Long> calls = new TreeMap<>();
    MetricsSource source = DefaultMetricsSystem.instance().getSource("RpcDetailedActivityForPort" + port);
    if (source == null) {
      return calls;
    }
    MetricsCollectorImpl collector = new MetricsCollectorImpl();
    source.getMetrics(collector, true);
    for (MetricsRecordImpl record : collector.getRecords()) {
      for (AbstractMetric metric : record.metrics()) {
        if (metric.name().endsWith("NumOps") && metric.value().longValue() > 0) {
          calls.merge(metric.name().substring(0, metric.name().length() - "NumOps".length()),
              metric.value().longValue(), Long::sum);
        }
      }
    }
    return calls;
  }

  /** What {@code after} has more of than {@code before}, by method. */
  static Map<String, Long> since(Map<String, Long> before, Map<String, Long> after) {
    Map<String, Long> more = new TreeMap<>();
    after.forEach((method, n) -> {
      long d = n - before.getOrDefault(method, 0L);
      if (d != 0) {
        more.put(method, d);
      }
    });
    return more;
  }

  /** The ResourceManager's client service's port. */
  static int resourceManager(ClusterFixture cluster) {
    return cluster.yarn().getResourceManager().getClientRMService().getBindAddress().getPort();
  }

  /** The NameNode's client RPC port. */
  static int nameNode(ClusterFixture cluster) {
    return cluster.dfs().getNameNodePort();
  }
}
