package io.vivace.jobs.crunch;

import org.apache.crunch.DoFn;
import org.apache.crunch.Emitter;
import org.apache.crunch.MapFn;
import org.apache.crunch.PCollection;
import org.apache.crunch.PTable;
import org.apache.crunch.Pair;
import org.apache.crunch.Pipeline;
import org.apache.crunch.PipelineResult;
import org.apache.crunch.fn.Aggregators;
import org.apache.crunch.impl.mr.MRPipeline;
import org.apache.crunch.lib.Cogroup;
import org.apache.crunch.lib.Join;
import org.apache.crunch.types.writable.Writables;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * Customers ({@code id,name,city}) and orders ({@code id,customer,cents}) on Crunch's
 * {@link MRPipeline}: their join, their co-group (each customer id with the list of its customer
 * records and the list of its orders) and the total of the orders of each city.
 * Usage: {@code CrunchOrders <customers> <orders> <out>}; writes {@code out/joined},
 * {@code out/cogrouped} and {@code out/cities}.
 */
public class CrunchOrders extends Configured implements Tool {

  /** A line keyed by its first comma-separated field, the rest as the value. */
  static final class ByFirstField extends MapFn<String, Pair<String, String>> {
    @Override
    public Pair<String, String> map(String line) {
      int comma = line.indexOf(',');
      return Pair.of(line.substring(0, comma), line.substring(comma + 1));
    }
  }

  /** A joined pair {@code (name,city ; order,cents)} as the city and the order's cents. */
  static final class CentsByCity extends DoFn<Pair<String, Pair<String, String>>, Pair<String, Long>> {
    @Override
    public void process(Pair<String, Pair<String, String>> joined, Emitter<Pair<String, Long>> out) {
      String customer = joined.second().first();
      String order = joined.second().second();
      String city = customer.substring(customer.indexOf(',') + 1);
      long cents = Long.parseLong(order.substring(order.indexOf(',') + 1));
      out.emit(Pair.of(city, cents));
    }
  }

  @Override
  public int run(String[] args) throws Exception {
    if (args.length != 3) {
      System.err.println("usage: CrunchOrders <customers> <orders> <out>");
      return 2;
    }
    Pipeline pipeline = new MRPipeline(CrunchOrders.class, "crunch orders", getConf());
    PCollection<String> customerLines = pipeline.readTextFile(args[0]);
    PCollection<String> orderLines = pipeline.readTextFile(args[1]);
    PTable<String, String> customers = customerLines.parallelDo("customers by id", new ByFirstField(),
        Writables.tableOf(Writables.strings(), Writables.strings()));
    PTable<String, String> orders = orderLines.parallelDo("orders by customer", new ByFirstField(),
        Writables.tableOf(Writables.strings(), Writables.strings()));

    PTable<String, Pair<String, String>> joined = Join.join(customers, orders);
    pipeline.writeTextFile(joined, args[2] + "/joined");
    pipeline.writeTextFile(Cogroup.cogroup(customers, orders), args[2] + "/cogrouped");
    PTable<String, Long> cities = joined.parallelDo("cents by city", new CentsByCity(),
        Writables.tableOf(Writables.strings(), Writables.longs())).groupByKey().combineValues(Aggregators.SUM_LONGS());
    pipeline.writeTextFile(cities, args[2] + "/cities");

    PipelineResult result = pipeline.done();
    return result.succeeded() ? 0 : 1;
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new CrunchOrders(), args));
  }
}
