package io.vivace.workloads.finra;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;

/**
 * The query's predicate: {@code issue_symbol LIKE pattern AND from <= orf_order_received_ts < to}.
 * The pattern is SQL's LIKE ({@code %} any run of characters, {@code _} one character, all else
 * literal); times are ms since the epoch or ISO-8601 instants ({@code 2016-03-01T15:00:00Z}).
 */
public record QueryFilter(String symbolPattern, long fromMs, long toMs) {

  public static final String SYMBOL = "vivace.finra.symbol";
  public static final String FROM = "vivace.finra.from";
  public static final String TO = "vivace.finra.to";

  public QueryFilter {
    if (fromMs >= toMs) {
      throw new IllegalArgumentException("the time range [" + fromMs + ", " + toMs + ") is empty");
    }
  }

  /** The study's query: 'XLP' over the whole generated trading day. */
  public static QueryFilter study() {
    return new QueryFilter(Symbols.STUDY_SYMBOL, OrderRow.DAY_START_MS,
        OrderRow.DAY_START_MS + OrderRow.DAY_MS);
  }

  /** From {@value #SYMBOL}, {@value #FROM} and {@value #TO}; the study's query where unset. */
  public static QueryFilter of(Configuration conf) {
    QueryFilter study = study();
    return new QueryFilter(conf.get(SYMBOL, study.symbolPattern()),
        time(FROM, conf.get(FROM, Long.toString(study.fromMs()))),
        time(TO, conf.get(TO, Long.toString(study.toMs()))));
  }

  public void set(Configuration conf) {
    conf.set(SYMBOL, symbolPattern);
    conf.setLong(FROM, fromMs);
    conf.setLong(TO, toMs);
  }

  /** ms since the epoch from a number or an ISO-8601 instant; the error names {@code what}. */
  public static long time(String what, String text) {
    String value = text.trim();
    try {
      return value.chars().allMatch(Character::isDigit) && !value.isEmpty()
          ? Long.parseLong(value) : Instant.parse(value).toEpochMilli();
    } catch (NumberFormatException | DateTimeParseException e) {
      throw new IllegalArgumentException(what + "=" + text
          + ": expected ms since the epoch or an ISO-8601 instant such as 2016-03-01T15:00:00Z");
    }
  }

  public Pattern symbolRegex() {
    StringBuilder regex = new StringBuilder();
    for (char c : symbolPattern.toCharArray()) {
      regex.append(c == '%' ? ".*" : c == '_' ? "." : Pattern.quote(Character.toString(c)));
    }
    return Pattern.compile(regex.toString());
  }

  /** Whether a row with these columns is selected; {@code symbol} matched by {@code regex}. */
  public boolean selects(Pattern regex, OrderRow.Selected row) {
    return row.receivedMs() >= fromMs && row.receivedMs() < toMs
        && regex.matcher(row.symbol()).matches();
  }

  /**
   * The sort key of a selected row: the time zero-padded (so text order is time order), then the
   * order id, so equal times come out in one order on every engine.
   */
  static String sortKey(OrderRow.Selected row) {
    return String.format("%019d%c%s%c%s", row.receivedMs(), OrderRow.SEPARATOR, row.orderId(),
        OrderRow.SEPARATOR, row.symbol());
  }

  /** The output line of a selected row: issue_symbol|orf_order_id|orf_order_received_ts. */
  static String outputLine(OrderRow.Selected row) {
    return row.symbol() + OrderRow.SEPARATOR + row.orderId() + OrderRow.SEPARATOR
        + row.receivedMs();
  }
}
