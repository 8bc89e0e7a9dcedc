package io.vivace.driver;

import org.apache.hadoop.fs.Path;

/**
 * Where input lives ({@code --data-root}) and where a copy of it may come from instead of being
 * generated ({@code --seed-data-root}; null when none).
 */
record DataRoots(Path root, Path seed) {}
