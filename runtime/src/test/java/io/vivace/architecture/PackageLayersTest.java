package io.vivace.architecture;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The runtime's packages depend one way: each only on packages on lines below its own in
 * docs/architecture.md's {@code layers} block, so there is no cycle between them either. A new
 * package takes its place in that block; a dependency that points up passes only while the block
 * allows it for now.
 */
class PackageLayersTest {

  @Test
  void everyPackageHasAPlaceInTheLayers() {
    Set<String> placed = new TreeSet<>();
    RuntimePackages.layers().forEach(placed::addAll);
    Set<String> packages = new TreeSet<>(RuntimePackages.dependencies().keySet());
    assertEquals(packages, placed, "the packages of runtime/src/main/java and those of docs/architecture.md's"
        + " layers block");
  }

  @Test
  void packagesUseOnlyThoseOfTheLayersBelowTheirs() {
    List<List<String>> layers = RuntimePackages.layers();
    LayeredArchitecture architecture = layeredArchitecture().consideringOnlyDependenciesInLayers()
        .withOptionalLayers(true);
    for (List<String> layer : layers) {
      for (String pkg : layer) {
        architecture = architecture.layer(pkg).definedBy(RuntimePackages.BASE + pkg);
      }
    }
    for (int i = 0; i < layers.size(); i++) {
      for (String pkg : layers.get(i)) {
        List<String> below = new ArrayList<>();
        layers.subList(i + 1, layers.size()).forEach(below::addAll);
        for (String[] edge : RuntimePackages.allowedForNow()) {
          if (edge[0].equals(pkg)) {
            below.add(edge[1]);
          }
        }
        architecture = below.isEmpty() ? architecture.whereLayer(pkg).mayNotAccessAnyLayer()
            : architecture.whereLayer(pkg).mayOnlyAccessLayers(below.toArray(String[]::new));
      }
    }
    architecture.because("docs/architecture.md's layers block says which way the packages depend")
        .check(RuntimePackages.classes());
  }

  @Test
  void whatIsAllowedForNowIsStillThere() {
    for (String[] edge : RuntimePackages.allowedForNow()) {
      assertTrue(RuntimePackages.dependencies().getOrDefault(edge[0], Set.of()).contains(edge[1]),
          edge[0] + " no longer depends on " + edge[1] + ": remove its 'allowed for now' line from docs/architecture.md");
    }
  }

  @Test
  void noCycleBetweenPackages() {
    slices().matching("io.vivace.(**)").should().beFreeOfCycles().check(RuntimePackages.classes());
  }
}
