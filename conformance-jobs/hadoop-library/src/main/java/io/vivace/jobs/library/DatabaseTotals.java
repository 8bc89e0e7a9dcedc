package io.vivace.jobs.library;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.db.DBConfiguration;
import org.apache.hadoop.mapreduce.lib.db.DBInputFormat;
import org.apache.hadoop.mapreduce.lib.db.DBOutputFormat;
import org.apache.hadoop.mapreduce.lib.db.DBWritable;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * {@code DBInputFormat} and {@code DBOutputFormat} with records of the job's own: reads the table
 * {@code orders(id, customer, amount)} in three splits, totals the amounts per customer, and writes
 * them to a table named after the output folder ({@code out-local} -> {@code TOTALS_OUT_LOCAL}),
 * which it makes first. Then the driver reads that table back into {@code <out>/totals.txt}.
 * Usage: {@code DatabaseTotals <jdbc driver class> <jdbc url> <out>}.
 */
public class DatabaseTotals extends Configured implements Tool {

  /** A row of {@code orders}. */
  public static class Order implements Writable, DBWritable {
    long id;
    String customer;
    long amount;

    @Override
    public void readFields(ResultSet row) throws SQLException {
      id = row.getLong(1);
      customer = row.getString(2);
      amount = row.getLong(3);
    }

    @Override
    public void write(PreparedStatement statement) throws SQLException {
      statement.setLong(1, id);
      statement.setString(2, customer);
      statement.setLong(3, amount);
    }

    @Override
    public void readFields(DataInput in) throws IOException {
      id = in.readLong();
      customer = Text.readString(in);
      amount = in.readLong();
    }

    @Override
    public void write(DataOutput out) throws IOException {
      out.writeLong(id);
      Text.writeString(out, customer);
      out.writeLong(amount);
    }
  }

  /** A row of the totals table. */
  public static class Total implements Writable, DBWritable {
    String customer;
    long total;
    int orders;

    @Override
    public void readFields(ResultSet row) throws SQLException {
      customer = row.getString(1);
      total = row.getLong(2);
      orders = row.getInt(3);
    }

    @Override
    public void write(PreparedStatement statement) throws SQLException {
      statement.setString(1, customer);
      statement.setLong(2, total);
      statement.setInt(3, orders);
    }

    @Override
    public void readFields(DataInput in) throws IOException {
      customer = Text.readString(in);
      total = in.readLong();
      orders = in.readInt();
    }

    @Override
    public void write(DataOutput out) throws IOException {
      Text.writeString(out, customer);
      out.writeLong(total);
      out.writeInt(orders);
    }
  }

  public static class ByCustomer extends Mapper<LongWritable, Order, Text, LongWritable> {
    private final Text customer = new Text();
    private final LongWritable amount = new LongWritable();

    @Override
    protected void map(LongWritable row, Order order, Context context) throws IOException, InterruptedException {
      customer.set(order.customer);
      amount.set(order.amount);
      context.write(customer, amount);
    }
  }

  public static class Totals extends Reducer<Text, LongWritable, Total, NullWritable> {
    private final Total total = new Total();

    @Override
    protected void reduce(Text customer, Iterable<LongWritable> amounts, Context context)
        throws IOException, InterruptedException {
      total.customer = customer.toString();
      total.total = 0;
      total.orders = 0;
      for (LongWritable a : amounts) {
        total.total += a.get();
        total.orders++;
      }
      context.write(total, NullWritable.get());
    }
  }

  @Override
  public int run(String[] args) throws Exception {
    Path out = new Path(args[2]);
    String table = "TOTALS_" + out.getName().replaceAll("[^A-Za-z0-9]", "_").toUpperCase();
    DBConfiguration.configureDB(getConf(), args[0], args[1]);
    try (Connection c = new DBConfiguration(getConf()).getConnection(); Statement s = c.createStatement()) {
      s.execute("DROP TABLE " + table + " IF EXISTS");
      s.execute("CREATE TABLE " + table + " (customer VARCHAR(32), total BIGINT, orders INT)");
    }

    Job job = Job.getInstance(getConf(), "order totals from and to a database");
    job.setJarByClass(DatabaseTotals.class);
    job.getConfiguration().setInt("mapreduce.job.maps", 3);
    job.setInputFormatClass(DBInputFormat.class);
    DBInputFormat.setInput(job, Order.class, "orders", null, "id", "id", "customer", "amount");
    job.setMapperClass(ByCustomer.class);
    job.setMapOutputKeyClass(Text.class);
    job.setMapOutputValueClass(LongWritable.class);
    job.setReducerClass(Totals.class);
    job.setNumReduceTasks(2);
    job.setOutputFormatClass(DBOutputFormat.class);
    DBOutputFormat.setOutput(job, table, "customer", "total", "orders");
    if (!job.waitForCompletion(true)) {
      return 1;
    }

    FileSystem fs = out.getFileSystem(getConf());
    try (Connection c = new DBConfiguration(getConf()).getConnection(); Statement s = c.createStatement();
         ResultSet rows = s.executeQuery("SELECT customer, total, orders FROM " + table + " ORDER BY customer");
         Writer w = new OutputStreamWriter(fs.create(new Path(out, "totals.txt")), StandardCharsets.UTF_8)) {
      while (rows.next()) {
        w.write(rows.getString(1) + "\t" + rows.getLong(2) + "\t" + rows.getInt(3) + "\n");
      }
    }
    return 0;
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new DatabaseTotals(), args));
  }
}
