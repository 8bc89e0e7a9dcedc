package io.vivace.realcluster;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The bandwidth every host's link is shaped to, in each direction, as {@code tc} writes rates
 * ({@code 100mbit}, {@code 1gbit}, {@code 10gbit}); {@code none} leaves links unshaped.
 */
record LinkRate(long bitsPerSecond) {

  static final LinkRate UNSHAPED = new LinkRate(0);
  private static final Pattern RATE =
      Pattern.compile("(\\d+(?:\\.\\d+)?)(bit|kbit|mbit|gbit|tbit)", Pattern.CASE_INSENSITIVE);

  static LinkRate parse(String text) {
    String rate = text.strip().toLowerCase(Locale.ROOT);
    if (rate.equals("none")) {
      return UNSHAPED;
    }
    Matcher m = RATE.matcher(rate);
    if (!m.matches()) {
      throw new IllegalArgumentException("--link " + text
          + ": not a rate (a number and bit, kbit, mbit, gbit or tbit, as 1gbit or 100mbit; or none)");
    }
    long unit = switch (m.group(2)) {
      case "bit" -> 1L;
      case "kbit" -> 1_000L;
      case "mbit" -> 1_000_000L;
      case "gbit" -> 1_000_000_000L;
      default -> 1_000_000_000_000L;
    };
    long bits = (long) (Double.parseDouble(m.group(1)) * unit);
    if (bits < 8_000) {
      throw new IllegalArgumentException("--link " + text + ": under 8kbit, too slow for a link");
    }
    return new LinkRate(bits);
  }

  boolean shaped() {
    return bitsPerSecond > 0;
  }

  /** The rate as tc reads it: bits per second. */
  String tcRate() {
    return bitsPerSecond + "bit";
  }

  /**
   * The bucket of the link's shaper: 5 ms at the link's rate and never under 64 KiB, so that one
   * segment of a veth's generic segmentation offload (up to 64 KiB) always fits.
   */
  long burstBytes() {
    return Math.max(64 * 1024, bitsPerSecond / 8 / 200);
  }

  @Override
  public String toString() {
    if (!shaped()) {
      return "none";
    }
    long[] units = {1_000_000_000_000L, 1_000_000_000L, 1_000_000L, 1_000L};
    String[] names = {"tbit", "gbit", "mbit", "kbit"};
    for (int i = 0; i < units.length; i++) {
      if (bitsPerSecond % units[i] == 0) {
        return bitsPerSecond / units[i] + names[i];
      }
    }
    return bitsPerSecond + "bit";
  }
}
