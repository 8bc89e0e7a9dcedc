package io.vivace.driver.workloads;

import io.vivace.driver.Param;
import io.vivace.driver.Params;
import io.vivace.driver.UsageException;
import io.vivace.driver.Workload;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** The workloads the driver knows, by name (docs/run-record.md lists them). */
public final class Workloads {

  private record Type(String name, List<Param> params, Function<Params, Workload> create) {}

  private static final List<Type> TYPES = List.of(
      new Type(SleepWorkload.NAME, SleepWorkload.PARAMS, SleepWorkload::new),
      new Type(TeraSortWorkload.NAME, TeraSortWorkload.PARAMS, TeraSortWorkload::new),
      new Type(WordCountWorkload.NAME, WordCountWorkload.PARAMS, WordCountWorkload::new),
      new Type(SortWorkload.NAME, SortWorkload.PARAMS, SortWorkload::new),
      new Type(DfsIoWriteWorkload.NAME, DfsIo.PARAMS, DfsIoWriteWorkload::new),
      new Type(DfsIoReadWorkload.NAME, DfsIo.PARAMS, DfsIoReadWorkload::new),
      new Type(PlasmaSortWorkload.NAME, PlasmaSortWorkload.PARAMS, PlasmaSortWorkload::new),
      new Type(FinraQueryWorkload.NAME, FinraQueryWorkload.PARAMS, FinraQueryWorkload::new),
      new Type(FinraConcurrencyWorkload.NAME, FinraConcurrencyWorkload.PARAMS,
          FinraConcurrencyWorkload::new),
      new Type(KMeansWorkload.NAME, KMeansWorkload.PARAMS, KMeansWorkload::new),
      new Type(PageRankWorkload.NAME, PageRankWorkload.PARAMS, PageRankWorkload::new),
      new Type(SwimWorkload.NAME, SwimWorkload.PARAMS, SwimWorkload::new));

  private Workloads() {}

  public static List<String> names() {
    return TYPES.stream().map(Type::name).toList();
  }

  /** A new instance of the named workload, for one run, with {@code params} resolved. */
  public static Workload create(String name, Map<String, String> params) throws UsageException {
    for (Type type : TYPES) {
      if (type.name().equals(name)) {
        return type.create().apply(Params.resolve(name, type.params(), params));
      }
    }
    throw new UsageException("unknown workload '" + name + "' (known: "
        + String.join(", ", names()) + ")");
  }
}
