package io.vivace.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo's checks on output folders written here as the jobs write theirs; the demo's run of the
 * real jobs is in LauncherTest.
 */
class DemoChecksTest {

  @TempDir
  Path dir;

  private Path folder(String name, Map<String, String> files) throws Exception {
    Path folder = Files.createDirectories(dir.resolve(name));
    for (Map.Entry<String, String> file : files.entrySet()) {
      Files.writeString(folder.resolve(file.getKey()), file.getValue());
    }
    return folder;
  }

  @Test
  void wordCountsAreWordCountsTokensOfEveryLine() throws Exception {
    Path input = folder("in", Map.of("a.txt", "to be\tor\r\nnot  to be\n", "b.txt", "be\fcafé\n"));
    assertEquals(Map.of("to", 2L, "be", 3L, "or", 1L, "not", 1L, "café", 1L),
        WordCountCheck.expectedCounts(input));
    Path output = folder("out", Map.of("part-r-00000", "be\t3\ncafé\t1\nnot\t1\n",
        "part-r-00001", "or\t1\nto\t2\n", "_SUCCESS", ""));
    assertEquals("wordcount output: 5 distinct words, counts as expected",
        WordCountCheck.check(input, output));
  }

  /** The message of the check's failure on that input text and output part file. */
  private String wordCountFailure(String text, String part) throws Exception {
    Path input = folder("in", Map.of("a.txt", text));
    Path output = folder("out", Map.of("part-r-00000", part));
    return assertThrows(DemoFailedException.class, () -> WordCountCheck.check(input, output))
        .getMessage();
  }

  @Test
  void aWrongOrMissingCountFailsNamingTheWord() throws Exception {
    String message = wordCountFailure("a b a c\n", "a\t2\nb\t2\n");
    assertTrue(message.contains("for 2 words"), message);
    assertTrue(message.contains("'b': 2 counted, 1 expected"), message);
    assertTrue(message.contains("'c': null counted, 1 expected"), message);
  }

  @Test
  void aLineThatIsNotAWordAndCountFails() throws Exception {
    String message = wordCountFailure("a\n", "a 1\n");
    assertTrue(message.contains("not a word and its count"), message);
  }

  @Test
  void aWordCountedTwiceFails() throws Exception {
    String message = wordCountFailure("a\n", "a\t1\na\t1\n");
    assertTrue(message.contains("a word counted twice"), message);
  }

  @Test
  void teraSortOutputNeedsEveryRowAndAReportWithAChecksumAndNoError() throws Exception {
    Path sorted = folder("sorted", Map.of("part-r-00000", "x".repeat(200), "_SUCCESS", ""));
    Path report = folder("report", Map.of("part-r-00000", "checksum\t1234abcd\n"));
    assertEquals("terasort output: 2 rows, in order", TeraSortCheck.check(sorted, report, 2));

    DemoFailedException missingRow = assertThrows(DemoFailedException.class,
        () -> TeraSortCheck.check(sorted, report, 3));
    assertTrue(missingRow.getMessage().startsWith("terasort wrote 200 bytes, expected 3 rows"),
        missingRow.getMessage());

    Path misordered = folder("misordered", Map.of("part-r-00000",
        "error\tmisorder in part-r-00000 between 6b and 6a\nchecksum\t1234abcd\n"));
    DemoFailedException error = assertThrows(DemoFailedException.class,
        () -> TeraSortCheck.check(sorted, misordered, 2));
    assertTrue(error.getMessage().contains("out of order"), error.getMessage());

    Path noChecksum = folder("no-checksum", Map.of("part-r-00000", ""));
    DemoFailedException checksum = assertThrows(DemoFailedException.class,
        () -> TeraSortCheck.check(sorted, noChecksum, 2));
    assertTrue(checksum.getMessage().startsWith("teravalidate wrote no checksum"),
        checksum.getMessage());
  }
}
