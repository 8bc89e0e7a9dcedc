package io.vivace.cluster.rpc;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;

/** Lists of {@link Writable}s and of strings, as the session's RPC messages carry them. */
final class WritableLists {

  private WritableLists() {
  }

  static void write(DataOutput out, List<? extends Writable> items) throws IOException {
    out.writeInt(items.size());
    for (Writable item : items) {
      item.write(out);
    }
  }

  static <T extends Writable> List<T> read(DataInput in, Supplier<T> make) throws IOException {
    int n = in.readInt();
    List<T> items = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      T item = make.get();
      item.readFields(in);
      items.add(item);
    }
    return items;
  }

  static void writeStrings(DataOutput out, List<String> items) throws IOException {
    out.writeInt(items.size());
    for (String item : items) {
      Text.writeString(out, item);
    }
  }

  static List<String> readStrings(DataInput in) throws IOException {
    int n = in.readInt();
    List<String> items = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      items.add(Text.readString(in));
    }
    return items;
  }
}
