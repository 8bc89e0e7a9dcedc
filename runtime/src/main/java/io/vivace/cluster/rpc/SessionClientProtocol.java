package io.vivace.cluster.rpc;

import org.apache.hadoop.mapreduce.protocol.ClientProtocol;

/**
 * Hadoop's {@link ClientProtocol} as a session's clients speak it. Its calls are ClientProtocol's
 * (the server dispatches them to the session's ClientProtocol); it exists because Hadoop annotates
 * ClientProtocol with the JobTracker's delegation-token selector, and which of the class path's
 * {@code SecurityInfo} providers Hadoop asks first depends on the order of the jars. For this
 * interface only {@link SessionSecurityInfo} answers, so the session's token is always the one sent.
 */
public interface SessionClientProtocol extends ClientProtocol {
}
