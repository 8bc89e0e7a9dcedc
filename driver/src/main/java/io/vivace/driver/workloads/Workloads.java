package io.vivace.driver.workloads;

import io.vivace.driver.Param;
import io.vivace.driver.Params;
import io.vivace.driver.UsageException;
import io.vivace.driver.Workload;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The workloads the driver knows, by name: the one list of them. {@code vivace driver
 * --list-workloads} prints it ({@link CatalogueJson}); the lab and bench/run read that.
 */
public final class Workloads {

  /** Where a workload's data and work roots may be. */
  public enum Roots {
    /** On any Hadoop file system, each on its own (file://, hdfs://, lustre://). */
    ANY("any"),
    /** Both on the default file system (fs.defaultFS). */
    DEFAULT_FILE_SYSTEM("default");

    private final String label;

    Roots(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }

  /** One workload: what the catalogue says of it, and how to make an instance for a run. */
  public record Type(String name, String description, List<Param> params, Roots roots,
      Function<Params, Workload> create) {

    Type(String name, String description, List<Param> params, Function<Params, Workload> create) {
      this(name, description, params, Roots.ANY, create);
    }
  }

  private static final List<Type> TYPES = List.of(
      new Type(SleepWorkload.NAME, SleepWorkload.DESCRIPTION, SleepWorkload.PARAMS,
          SleepWorkload::new),
      new Type(TeraSortWorkload.NAME, TeraSortWorkload.DESCRIPTION, TeraSortWorkload.PARAMS,
          TeraSortWorkload::new),
      new Type(WordCountWorkload.NAME, WordCountWorkload.DESCRIPTION, WordCountWorkload.PARAMS,
          WordCountWorkload::new),
      new Type(SortWorkload.NAME, SortWorkload.DESCRIPTION, SortWorkload.PARAMS,
          SortWorkload::new),
      new Type(DfsIoWriteWorkload.NAME, DfsIoWriteWorkload.DESCRIPTION, DfsIo.PARAMS,
          Roots.DEFAULT_FILE_SYSTEM, DfsIoWriteWorkload::new),
      new Type(DfsIoReadWorkload.NAME, DfsIoReadWorkload.DESCRIPTION, DfsIo.PARAMS,
          Roots.DEFAULT_FILE_SYSTEM, DfsIoReadWorkload::new),
      new Type(PlasmaSortWorkload.NAME, PlasmaSortWorkload.DESCRIPTION, PlasmaSortWorkload.PARAMS,
          PlasmaSortWorkload::new),
      new Type(FinraQueryWorkload.NAME, FinraQueryWorkload.DESCRIPTION, FinraQueryWorkload.PARAMS,
          FinraQueryWorkload::new),
      new Type(FinraConcurrencyWorkload.NAME, FinraConcurrencyWorkload.DESCRIPTION,
          FinraConcurrencyWorkload.PARAMS, FinraConcurrencyWorkload::new),
      new Type(KMeansWorkload.NAME, KMeansWorkload.DESCRIPTION, KMeansWorkload.PARAMS,
          KMeansWorkload::new),
      new Type(PageRankWorkload.NAME, PageRankWorkload.DESCRIPTION, PageRankWorkload.PARAMS,
          PageRankWorkload::new),
      new Type(BayesWorkload.NAME, BayesWorkload.DESCRIPTION, BayesWorkload.PARAMS,
          BayesWorkload::new),
      new Type(SwimWorkload.NAME, SwimWorkload.DESCRIPTION, SwimWorkload.PARAMS,
          SwimWorkload::new));

  private Workloads() {}

  /** Every workload, in the order the driver lists them. */
  public static List<Type> types() {
    return TYPES;
  }

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
