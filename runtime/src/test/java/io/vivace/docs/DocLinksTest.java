package io.vivace.docs;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vivace.docs.RepositoryDocs.Found;
import io.vivace.docs.RepositoryDocs.Line;
import io.vivace.docs.RepositoryDocs.Page;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every link of every page leads to a file of the repository (and to a heading there, when it names
 * one), and no page points at what a clone does not have: the project's shared folder beside the
 * checkout, or a folder of a development machine.
 */
class DocLinksTest {

  /** Where a development machine keeps checkouts, and the folder beside them: not in a clone. */
  private static final Pattern MACHINE_PATH =
      Pattern.compile("(?<![\\w.~-])/(work|home|root|Users)/|\\.\\./shared\\b");
  private static final Pattern WEB = Pattern.compile("^(https?|mailto):.*");

  @Test
  void everyLinkLeadsToAFileOfTheRepositoryAndItsHeading() {
    List<String> broken = new ArrayList<>();
    for (Page page : RepositoryDocs.pages()) {
      for (Found link : page.links()) {
        String problem = problem(page, link.text());
        if (problem != null) {
          broken.add(page.where(link.line()) + ": (" + link.text() + ") " + problem);
        }
      }
    }
    assertTrue(broken.isEmpty(), "links that lead nowhere in a clone:\n" + String.join("\n", broken));
  }

  @Test
  void noPageNamesAPathOutsideTheRepository() {
    List<String> outside = new ArrayList<>();
    for (Page page : RepositoryDocs.pages()) {
      for (Line line : page.lines()) {
        if (MACHINE_PATH.matcher(line.text()).find()) {
          outside.add(page.where(line) + ": " + line.text().strip());
        }
      }
    }
    assertTrue(outside.isEmpty(), "paths a clone does not have (a development machine's, or the shared folder"
        + " beside the checkout); say what is there instead:\n" + String.join("\n", outside));
  }

  /** Why {@code target} of a link on {@code page} leads nowhere, or null. */
  static String problem(Page page, String target) {
    if (WEB.matcher(target).matches()) {
      return null;
    }
    if (target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
      return "not a page of the repository";
    }
    int hash = target.indexOf('#');
    String path = hash < 0 ? target : target.substring(0, hash);
    String anchor = hash < 0 ? null : target.substring(hash + 1);
    Path file = path.isEmpty() ? page.file() : page.file().getParent().resolve(path).normalize();
    if (!file.startsWith(page.root())) {
      return "leads outside the repository";
    }
    if (!Files.exists(file)) {
      return "no such file: " + page.root().relativize(file);
    }
    if (anchor != null && file.toString().endsWith(".md")
        && !Page.read(page.root(), file).anchors().contains(anchor)) {
      return "no heading with the anchor #" + anchor + " in " + page.root().relativize(file);
    }
    return null;
  }
}
