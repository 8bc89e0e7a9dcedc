package io.vivace.jobs.orc;

import org.apache.orc.TypeDescription;

/** The ORC schema of a taxi trip, the records the ORC jobs read and write. */
final class Trips {

  static final TypeDescription SCHEMA = TypeDescription.fromString(
      "struct<vendor:string,zone:int,day:int,passengers:int,fare_cents:bigint,tip_cents:bigint,tags:array<string>>");

  private Trips() {}
}
