package io.vivace.workloads.finra;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * A row of the audit trail's share-order table: 12 columns separated by {@value #SEPARATOR}.
 *
 * <pre>
 * issue_symbol | orf_order_id | orf_order_received_ts (ms since epoch) | firm_id | side | quantity
 *   | limit_price | order_type | time_in_force | account_type | route_venue | order_status
 * </pre>
 *
 * The symbol is drawn from {@link Symbols} (Zipf-skewed popularity), the time uniformly from a
 * trading day starting at {@link #DAY_START_MS}; the order id is unique within a data set (the
 * generator's split index times 10^12 plus the row's number within its split).
 */
public final class OrderRow {

  public static final char SEPARATOR = '|';
  public static final int COLUMNS = 12;
  /** 2016-03-01 09:30 US Eastern (14:30 UTC): the trading day the rows fall into. */
  public static final long DAY_START_MS = 1_456_842_600_000L;
  /** 6.5 hours: the rows' times lie in {@code [DAY_START_MS, DAY_START_MS + DAY_MS)}. */
  public static final long DAY_MS = 23_400_000L;
  static final long IDS_PER_SPLIT = 1_000_000_000_000L;

  private static final String[] SIDES = {"B", "S", "SS", "SX"};
  private static final String[] ORDER_TYPES = {"LMT", "LMT", "LMT", "MKT", "STP", "STL"};
  private static final String[] TIME_IN_FORCE = {"DAY", "DAY", "DAY", "GTC", "IOC", "FOK"};
  private static final String[] ACCOUNT_TYPES = {"I", "A", "P", "E", "O"};
  private static final String[] VENUES = {"NSDQ", "NYSE", "ARCA", "BATS", "EDGX", "IEXG", "DARK"};
  private static final String[] STATUSES = {"NEW", "NEW", "FILL", "PART", "CXL", "RPL"};
  private static final int FIRMS = 4_000;

  private OrderRow() {}

  /** The next random row (without line end) of split {@code split}, its {@code n}-th. */
  static byte[] next(SplittableRandom random, Symbols symbols, int split, long n) {
    StringBuilder row = new StringBuilder(96);
    String orderType = pick(random, ORDER_TYPES);
    row.append(symbols.draw(random)).append(SEPARATOR)
        .append(split * IDS_PER_SPLIT + n).append(SEPARATOR)
        .append(DAY_START_MS + random.nextLong(DAY_MS)).append(SEPARATOR)
        .append('F').append(String.format("%04d", random.nextInt(FIRMS))).append(SEPARATOR)
        .append(pick(random, SIDES)).append(SEPARATOR)
        .append(100 * (1 + random.nextInt(random.nextInt(10) == 0 ? 500 : 20))).append(SEPARATOR);
    if (orderType.equals("MKT")) {
      row.append("0.00");
    } else {
      long cents = 100 + random.nextLong(50_000);
      row.append(cents / 100).append('.').append(cents % 100 < 10 ? "0" : "").append(cents % 100);
    }
    row.append(SEPARATOR).append(orderType).append(SEPARATOR)
        .append(pick(random, TIME_IN_FORCE)).append(SEPARATOR)
        .append(pick(random, ACCOUNT_TYPES)).append(SEPARATOR)
        .append(pick(random, VENUES)).append(SEPARATOR)
        .append(pick(random, STATUSES));
    return row.toString().getBytes(StandardCharsets.US_ASCII);
  }

  private static String pick(SplittableRandom random, String[] values) {
    return values[random.nextInt(values.length)];
  }

  /** The three columns the query selects, parsed from a row; null fields when malformed. */
  public record Selected(String symbol, String orderId, long receivedMs) {}

  /**
   * The selected columns of {@code line}, or null when it is not a row: not {@value #COLUMNS}
   * columns, an empty symbol or id, or a time that is not a whole number.
   */
  public static Selected parse(String line) {
    int first = line.indexOf(SEPARATOR);
    int second = first < 0 ? -1 : line.indexOf(SEPARATOR, first + 1);
    int third = second < 0 ? -1 : line.indexOf(SEPARATOR, second + 1);
    if (first <= 0 || second <= first + 1 || third <= second + 1) {
      return null;
    }
    int columns = 1;
    for (int i = 0; i < line.length(); i++) {
      if (line.charAt(i) == SEPARATOR) {
        columns++;
      }
    }
    if (columns != COLUMNS) {
      return null;
    }
    try {
      return new Selected(line.substring(0, first), line.substring(first + 1, second),
          Long.parseLong(line.substring(second + 1, third)));
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
