package io.vivace.jobs.parquet;

import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;

/** The Parquet schema of a sale, the records the Parquet jobs read. */
final class Sales {

  static final MessageType SCHEMA = MessageTypeParser.parseMessageType(
      "message sale {\n"
          + "  required binary store (UTF8);\n"
          + "  required binary product (UTF8);\n"
          + "  required int32 day;\n"
          + "  required int32 quantity;\n"
          + "  required int64 cents;\n"
          + "  optional binary coupon (UTF8);\n"
          + "}");

  private Sales() {}
}
