package io.vivace.sort;

import java.io.DataOutput;
import java.io.IOException;
import java.util.Locale;
import org.apache.hadoop.io.Text;

/** A Text that writes itself upper-cased: tests use it to check that its own write is used, not Text's. */
public final class LoudText extends Text {
  public LoudText() {
  }

  public LoudText(String s) {
    super(s);
  }

  @Override
  public void write(DataOutput out) throws IOException {
    new Text(toString().toUpperCase(Locale.ROOT)).write(out);
  }
}
