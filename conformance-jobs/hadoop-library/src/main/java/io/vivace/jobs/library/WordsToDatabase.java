package io.vivace.jobs.library;

import java.io.IOException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.db.DBConfiguration;
import org.apache.hadoop.mapreduce.lib.db.DBOutputFormat;
import org.apache.hadoop.mapreduce.lib.db.DBWritable;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * Word counts written to a database table with {@code DBOutputFormat}: only the tasks reach the
 * database, so the JDBC driver need only be shipped with {@code -libjars}.
 * Usage: {@code WordsToDatabase <jdbc driver class> <jdbc url> <table (word, count)> <in>}.
 */
public class WordsToDatabase extends Configured implements Tool {

  /** A row (word, count). */
  public static class WordRow implements DBWritable {
    String word;
    int count;

    @Override
    public void write(PreparedStatement statement) throws SQLException {
      statement.setString(1, word);
      statement.setInt(2, count);
    }

    @Override
    public void readFields(ResultSet row) throws SQLException {
      word = row.getString(1);
      count = row.getInt(2);
    }
  }

  public static class Words extends Mapper<LongWritable, Text, Text, IntWritable> {
    private final Text word = new Text();
    private final IntWritable one = new IntWritable(1);

    @Override
    protected void map(LongWritable offset, Text line, Context context) throws IOException, InterruptedException {
      for (String w : line.toString().toLowerCase().split("[^a-z]+")) {
        if (!w.isEmpty()) {
          word.set(w);
          context.write(word, one);
        }
      }
    }
  }

  public static class Rows extends Reducer<Text, IntWritable, WordRow, NullWritable> {
    private final WordRow row = new WordRow();

    @Override
    protected void reduce(Text word, Iterable<IntWritable> ones, Context context) throws IOException, InterruptedException {
      row.word = word.toString();
      row.count = 0;
      for (IntWritable one : ones) {
        row.count += one.get();
      }
      context.write(row, NullWritable.get());
    }
  }

  @Override
  public int run(String[] args) throws Exception {
    DBConfiguration.configureDB(getConf(), args[0], args[1]);
    Job job = Job.getInstance(getConf(), "word counts into a database");
    job.setJarByClass(WordsToDatabase.class);
    job.setMapperClass(Words.class);
    job.setMapOutputKeyClass(Text.class);
    job.setMapOutputValueClass(IntWritable.class);
    job.setReducerClass(Rows.class);
    job.setNumReduceTasks(2);
    job.setOutputFormatClass(DBOutputFormat.class);
    DBOutputFormat.setOutput(job, args[2], "word", "count");
    FileInputFormat.addInputPath(job, new Path(args[3]));
    return job.waitForCompletion(true) ? 0 : 1;
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new WordsToDatabase(), args));
  }
}
