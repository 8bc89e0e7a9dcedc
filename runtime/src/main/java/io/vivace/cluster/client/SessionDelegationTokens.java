package io.vivace.cluster.client;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.security.TokenCache;
import org.apache.hadoop.security.Credentials;

/**
 * The delegation tokens a session's containers reach the cluster's file systems with on a Kerberos
 * cluster, where they have no login of their own: obtained by the client that submits the session,
 * as the session's owner, for the default file system and those {@code mapreduce.job.hdfs-servers}
 * names, with the ResourceManager as their renewer, as MapReduce's job client does for its
 * application master (Hadoop's {@link TokenCache}). They go into the master's launch context, so the
 * ResourceManager renews them for as long as the session runs and cancels them when it ends; the
 * master hands them on to its executors. On a cluster without Kerberos there are none.
 *
 * <p>These are the session's own: a job's attempts run with the tokens the job was submitted with.
 */
final class SessionDelegationTokens {

  private SessionDelegationTokens() {
  }

  static Credentials obtain(Configuration conf) throws IOException {
    List<Path> fileSystems = new ArrayList<>();
    fileSystems.add(FileSystem.get(conf).getHomeDirectory());
    for (String server : conf.getTrimmedStrings(MRJobConfig.JOB_NAMENODES)) {
      fileSystems.add(new Path(server));
    }
    Credentials credentials = new Credentials();
    TokenCache.obtainTokensForNamenodes(credentials, fileSystems.toArray(new Path[0]), conf);
    return credentials;
  }
}
