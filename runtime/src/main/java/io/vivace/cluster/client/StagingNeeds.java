package io.vivace.cluster.client;

import io.vivace.conf.VivaceConf;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.MRJobConfig;

/**
 * What of a job Hadoop's job client would copy onto the cluster's file system besides its own
 * {@code job.xml} and split files: {@code -files}, {@code -libjars} and {@code -archives}
 * (GenericOptionsParser's {@code tmpfiles}, {@code tmpjars}, {@code tmparchives}), a log4j file
 * for the tasks, resources for YARN's shared cache, a job jar that is still a local file. A job that
 * needs none of these is submitted to its session as its description, with nothing written to the
 * cluster's file system ({@link DescribedSubmissions}); one that needs any, or whose user turned that
 * off ({@code vivace.session.submit.rpc=false}), is staged as MapReduce on YARN stages it. Files the
 * job names on the cluster's file system already ({@code Job.addCacheFile}) are not copied, so they
 * are no need.
 */
final class StagingNeeds {

  /** GenericOptionsParser's keys for its options. */
  private static final String[] GENERIC_OPTIONS = {"tmpfiles", "tmpjars", "tmparchives"};
  private static final String[] OPTIONS = {"files", "libjars", "archives"};

  private StagingNeeds() {
  }

  /** Why {@code conf}'s job must be staged on the cluster's file system; empty when nothing needs it. */
  static List<String> of(Configuration conf) {
    List<String> needs = new ArrayList<>();
    if (!VivaceConf.getBoolean(conf, "vivace.session.submit.rpc")) {
      needs.add("vivace.session.submit.rpc=false");
    }
    for (int i = 0; i < GENERIC_OPTIONS.length; i++) {
      String key = GENERIC_OPTIONS[i];
      if (!conf.getTrimmed(key, "").isEmpty()) {
        needs.add(key + " (-" + OPTIONS[i] + ")");
      }
    }
    if (!conf.getTrimmed(MRJobConfig.MAPREDUCE_JOB_LOG4J_PROPERTIES_FILE, "").isEmpty()) {
      needs.add(MRJobConfig.MAPREDUCE_JOB_LOG4J_PROPERTIES_FILE);
    }
    String sharedCache = conf.getTrimmed(MRJobConfig.SHARED_CACHE_MODE, MRJobConfig.SHARED_CACHE_MODE_DEFAULT);
    if (!sharedCache.equalsIgnoreCase("disabled")) {
      needs.add(MRJobConfig.SHARED_CACHE_MODE + "=" + sharedCache);
    }
    String jar = conf.getTrimmed(MRJobConfig.JAR, "");
    if (!jar.isEmpty()) {
      URI uri = new Path(jar).toUri();
      if (uri.getScheme() == null || uri.getScheme().equals("file")) {
        needs.add("the local job jar " + jar);
      }
    }
    return needs;
  }
}
