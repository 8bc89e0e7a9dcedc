package io.vivace.realcluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The {@code ```sh} blocks of a documentation page, as a reader copies them. */
final class DocCommands {

  private DocCommands() {}

  static List<String> shellBlocks(Path page) throws IOException {
    List<String> blocks = new ArrayList<>();
    StringBuilder block = null;
    for (String line : Files.readAllLines(page)) {
      if (block == null && line.strip().equals("```sh")) {
        block = new StringBuilder();
      } else if (block != null && line.strip().equals("```")) {
        blocks.add(block.toString());
        block = null;
      } else if (block != null) {
        block.append(line).append('\n');
      }
    }
    return blocks;
  }

  /** The text with each key replaced by its value; a key the text lacks fails (the page changed). */
  static String substitute(String text, Map<String, String> replacements) {
    String result = text;
    for (Map.Entry<String, String> r : replacements.entrySet()) {
      if (!result.contains(r.getKey())) {
        throw new IllegalStateException("the page's commands no longer hold `" + r.getKey() + "`:\n" + text);
      }
      result = result.replace(r.getKey(), r.getValue());
    }
    return result;
  }
}
