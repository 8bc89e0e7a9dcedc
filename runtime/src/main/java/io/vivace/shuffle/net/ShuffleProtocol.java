package io.vivace.shuffle.net;

/**
 * The names of the shuffle's HTTP exchange (docs/shuffle.md, "Wire format"): the path, the request's
 * parameters and the headers of the request and of the answer.
 */
final class ShuffleProtocol {

  /** The one path the executor's server answers; the version is in it. */
  static final String PATH = "/vivace/shuffle/2/map-output";

  static final String PARAM_JOB = "job";
  static final String PARAM_MAP = "map";
  static final String PARAM_ATTEMPT = "attempt";
  static final String PARAM_PARTITION = "reduce";

  /** Request: the HMAC of the request's parameters and stamp under the job's key (ShuffleAuth). */
  static final String HEADER_REQUEST_MAC = "X-Vivace-Shuffle-Mac";
  /** Request: when the reducer sent it, ms since the epoch (RequestStamp). */
  static final String HEADER_SENT_AT = "X-Vivace-Shuffle-Time";
  /** Request: the reducer's random nonce for it (RequestStamp). */
  static final String HEADER_NONCE = "X-Vivace-Shuffle-Nonce";
  /** Answer: the HMAC of the request's MAC, the length and the compression, under the job's key. */
  static final String HEADER_ANSWER_MAC = "X-Vivace-Shuffle-Answer-Mac";
  /** Answer: what was served, echoed so that the reducer checks it got what it asked for. */
  static final String HEADER_JOB = "X-Vivace-Job";
  static final String HEADER_MAP = "X-Vivace-Map";
  static final String HEADER_ATTEMPT = "X-Vivace-Attempt";
  static final String HEADER_PARTITION = "X-Vivace-Reduce";
  /** Answer: the segment's stored bytes (0 for an empty partition), equal to the body's length. */
  static final String HEADER_LENGTH = "X-Vivace-Segment-Length";
  /** Answer: whether the stored bytes are compressed (with the job's codec), "true" or "false". */
  static final String HEADER_COMPRESSED = "X-Vivace-Segment-Compressed";

  private ShuffleProtocol() {
  }
}
