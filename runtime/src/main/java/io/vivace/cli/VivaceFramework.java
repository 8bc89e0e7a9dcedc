package io.vivace.cli;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.util.ConfigUtil;

/**
 * Makes Vivace the framework of the jobs {@code ./vivace jar} runs, whatever the site files say:
 * with a cluster's client configuration as {@code HADOOP_CONF_DIR}, whose {@code mapred-site.xml}
 * says {@code mapreduce.framework.name=yarn}, a job would otherwise go to MapReduce on YARN. The
 * key's value {@code vivace} comes from a resource loaded after Hadoop's site files, so it beats
 * them; what the command line sets ({@code -D mapreduce.framework.name=yarn}, through
 * {@code GenericOptionsParser}) or the program sets beats any resource, so naming another framework
 * there still runs the jar on it. A site file that marks the key {@code final} keeps its value.
 */
final class VivaceFramework {

  static final String RESOURCE = "io/vivace/cli/vivace-framework.xml";

  private VivaceFramework() {}

  static void makeDefault() {
    // mapred-site.xml (and yarn-site.xml) join the default resources first, as JobConf's loading
    // would add them later: a resource added later wins.
    ConfigUtil.loadResources();
    Configuration.addDefaultResource(RESOURCE);
  }
}
