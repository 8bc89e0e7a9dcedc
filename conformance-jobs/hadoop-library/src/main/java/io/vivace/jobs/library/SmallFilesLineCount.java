package io.vivace.jobs.library;

import java.io.IOException;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.input.CombineFileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.CombineFileRecordReader;
import org.apache.hadoop.mapreduce.lib.input.CombineFileSplit;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.lib.input.LineRecordReader;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.reduce.IntSumReducer;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * Many small files read through {@code CombineFileInputFormat} with a record reader of the job's
 * own (which {@code CombineFileRecordReader} makes by reflection, one per file of a split): lines
 * per file name. Usage: {@code SmallFilesLineCount <in> <out>}.
 */
public class SmallFilesLineCount extends Configured implements Tool {

  /** Reads one file of a combined split, keyed by the file's name. */
  public static class NamedLines extends RecordReader<Text, Text> {
    private final LineRecordReader lines = new LineRecordReader();
    private final FileSplit file;
    private final Text name;

    public NamedLines(CombineFileSplit split, TaskAttemptContext context, Integer index) {
      this.file = new FileSplit(split.getPath(index), split.getOffset(index), split.getLength(index), null);
      this.name = new Text(split.getPath(index).getName());
    }

    @Override
    public void initialize(InputSplit split, TaskAttemptContext context) throws IOException {
      lines.initialize(file, context);
    }

    @Override
    public boolean nextKeyValue() throws IOException {
      return lines.nextKeyValue();
    }

    @Override
    public Text getCurrentKey() {
      return name;
    }

    @Override
    public Text getCurrentValue() {
      return lines.getCurrentValue();
    }

    @Override
    public float getProgress() throws IOException {
      return lines.getProgress();
    }

    @Override
    public void close() throws IOException {
      lines.close();
    }
  }

  public static class SmallFiles extends CombineFileInputFormat<Text, Text> {
    @Override
    public RecordReader<Text, Text> createRecordReader(InputSplit split, TaskAttemptContext context) throws IOException {
      return new CombineFileRecordReader<>((CombineFileSplit) split, context, NamedLines.class);
    }
  }

  public static class CountLines extends Mapper<Text, Text, Text, IntWritable> {
    private final IntWritable one = new IntWritable(1);

    @Override
    protected void map(Text file, Text line, Context context) throws IOException, InterruptedException {
      context.write(file, one);
    }
  }

  @Override
  public int run(String[] args) throws Exception {
    Job job = Job.getInstance(getConf(), "lines of small files");
    job.setJarByClass(SmallFilesLineCount.class);
    job.setInputFormatClass(SmallFiles.class);
    CombineFileInputFormat.setMaxInputSplitSize(job, 4096);
    job.setMapperClass(CountLines.class);
    job.setCombinerClass(IntSumReducer.class);
    job.setReducerClass(IntSumReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(IntWritable.class);
    FileInputFormat.addInputPath(job, new Path(args[0]));
    FileOutputFormat.setOutputPath(job, new Path(args[1]));
    return job.waitForCompletion(true) ? 0 : 1;
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new SmallFilesLineCount(), args));
  }
}
