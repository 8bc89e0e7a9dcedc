package io.vivace.conf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.JobConf;
import org.junit.jupiter.api.Test;

/** Reading the Vivace keys of a real job configuration through the registry. */
class VivaceConfTest {

  private static final int CORES = Runtime.getRuntime().availableProcessors();

  @Test
  void anUnsetKeyGetsTheComputedDefaultOfThisMachine() {
    JobConf conf = new JobConf();
    assertEquals(CORES, VivaceConf.getInt(conf, "vivace.slots"));
    assertEquals((Runtime.getRuntime().maxMemory() / 4) >> 20, VivaceConf.getLong(conf, "vivace.shuffle.memory.mb"));
    assertFalse(VivaceConf.isSet(conf, "vivace.slots"));
  }

  @Test
  void theReduceThreadsDefaultToOnWhenAJobHasFewerReducesThanCores() {
    JobConf conf = new JobConf();
    conf.setNumReduceTasks(CORES - 1);
    assertEquals(CORES > 1, VivaceConf.getBoolean(conf, "vivace.reduce.merge.thread"));
    assertEquals(CORES > 1, VivaceConf.getBoolean(conf, "vivace.reduce.output.thread"));
    conf.setNumReduceTasks(CORES);
    assertFalse(VivaceConf.getBoolean(conf, "vivace.reduce.merge.thread"));
    assertFalse(VivaceConf.getBoolean(conf, "vivace.reduce.output.thread"));
    conf.setBoolean("vivace.reduce.output.thread", true);
    assertTrue(VivaceConf.getBoolean(conf, "vivace.reduce.output.thread"), "a setting wins");
  }

  @Test
  void aLiteralDefaultExpandsHadoopVariablesOfTheConfiguration() {
    Configuration conf = new Configuration();
    conf.set("hadoop.tmp.dir", "/data/tmp");
    assertEquals("/data/tmp/vivace/history", VivaceConf.get(conf, "vivace.history.dir"));
    assertFalse(VivaceConf.getBoolean(conf, "vivace.reduce.merge.ahead"));
  }

  @Test
  void aSetValueIsReadTrimmedAndTyped() {
    Configuration conf = new Configuration(false);
    conf.set("vivace.slots", " 3 ");
    conf.set("vivace.reduce.merge.ahead", "TRUE");
    assertEquals(3, VivaceConf.getInt(conf, "vivace.slots"));
    assertTrue(VivaceConf.isSet(conf, "vivace.slots"));
    assertTrue(VivaceConf.getBoolean(conf, "vivace.reduce.merge.ahead"));
  }

  @Test
  void aValueOfTheWrongTypeIsAnErrorNamingKeyAndValue() {
    Configuration conf = new Configuration(false);
    conf.set("vivace.slots", "many");
    conf.set("vivace.reduce.merge.ahead", "yes");
    assertEquals("vivace.slots=many: expected a whole number (int)",
        assertThrows(IllegalArgumentException.class, () -> VivaceConf.getInt(conf, "vivace.slots")).getMessage());
    assertEquals("vivace.reduce.merge.ahead=yes: expected true or false",
        assertThrows(IllegalArgumentException.class,
            () -> VivaceConf.getBoolean(conf, "vivace.reduce.merge.ahead")).getMessage());
  }

  @Test
  void anUndeclaredKeyOrAnotherTypeCannotBeRead() {
    Configuration conf = new Configuration(false);
    conf.set("vivace.slotz", "2");
    assertEquals("vivace.slotz is not declared in vivace-default.xml",
        assertThrows(IllegalArgumentException.class, () -> VivaceConf.getInt(conf, "vivace.slotz")).getMessage());
    assertEquals("vivace.slots is declared int in vivace-default.xml, read as long",
        assertThrows(IllegalStateException.class, () -> VivaceConf.getLong(conf, "vivace.slots")).getMessage());
    assertThrows(IllegalStateException.class, () -> VivaceConf.get(conf, "vivace.slots"));
  }

  @Test
  void aStringKeyWithoutDefaultReadsNullAndAChoiceOnlyItsWords() {
    Configuration conf = new Configuration(false);
    assertEquals(null, VivaceConf.get(conf, "vivace.kmeans.centroids"));
    assertEquals("fail", VivaceConf.get(conf, "vivace.workloads.bad-records"));
    conf.set("vivace.workloads.bad-records", "ignore");
    assertEquals("vivace.workloads.bad-records=ignore: expected one of fail, skip",
        assertThrows(IllegalArgumentException.class,
            () -> VivaceConf.get(conf, "vivace.workloads.bad-records")).getMessage());
  }
}
