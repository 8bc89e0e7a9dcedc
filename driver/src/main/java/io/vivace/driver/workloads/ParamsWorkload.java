package io.vivace.driver.workloads;

import io.vivace.driver.Params;
import io.vivace.driver.Workload;

/** A workload's name and the parameters of its run, which every workload here keeps the same way. */
abstract class ParamsWorkload implements Workload {

  private final String name;
  protected final Params params;

  ParamsWorkload(String name, Params params) {
    this.name = name;
    this.params = params;
  }

  @Override
  public final String name() {
    return name;
  }

  @Override
  public final Params params() {
    return params;
  }
}
