package io.vivace.cluster.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.util.GenericOptionsParser;
import org.junit.jupiter.api.Test;

/** Which jobs must be staged on the cluster's file system, as Hadoop's own option parser sets them up. */
class StagingNeedsTest {

  @Test
  void aJobWithItsJarOnTheClusterAndNothingElseNeedsNoStaging() {
    Configuration conf = new Configuration();
    conf.set(MRJobConfig.JAR, "hdfs://nn:8020/user/alice/.vivace/jars/0a1b.jar");
    conf.set(MRJobConfig.CACHE_FILES, "hdfs://nn:8020/data/lookup.txt#lookup");
    assertEquals(List.of(), StagingNeeds.of(conf));
  }

  @Test
  void genericOptionsLog4jSharedCacheALocalJarAndTheKeyEachNeedStaging() throws Exception {
    java.io.File file = java.io.File.createTempFile("vivace-needs-", ".txt");
    try {
      Configuration conf = new Configuration();
      new GenericOptionsParser(conf, new String[] {"-files", file.getAbsolutePath(), "-libjars",
          file.getAbsolutePath(), "-archives", file.getAbsolutePath()});
      assertEquals(List.of("tmpfiles (-files)", "tmpjars (-libjars)", "tmparchives (-archives)"), StagingNeeds.of(conf));
    } finally {
      file.delete();
    }
    Configuration conf = new Configuration();
    conf.set(MRJobConfig.MAPREDUCE_JOB_LOG4J_PROPERTIES_FILE, "/home/alice/log4j.properties");
    conf.set(MRJobConfig.SHARED_CACHE_MODE, "jobjar");
    conf.set(MRJobConfig.JAR, "/home/alice/job.jar");
    conf.setBoolean("vivace.session.submit.rpc", false);
    assertEquals(List.of("vivace.session.submit.rpc=false", MRJobConfig.MAPREDUCE_JOB_LOG4J_PROPERTIES_FILE,
        MRJobConfig.SHARED_CACHE_MODE + "=jobjar", "the local job jar /home/alice/job.jar"), StagingNeeds.of(conf));
  }
}
