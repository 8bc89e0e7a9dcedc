package io.vivace.sandbox.rewrite;

import java.util.Set;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Rewrites a job class so that what it does to "its JVM" stays with its task: exits, the working
 * directory, child processes. Calls are redirected to {@link io.vivace.sandbox.calls}; nothing else
 * in the class changes. A class that makes none of these calls, or that ASM cannot read (a class
 * file version newer than it knows), is returned as it is.
 */
public final class CallRewriter {

  /** Classes whose methods or constructors some rewrite targets: a class naming none is left alone. */
  private static final Set<String> OWNERS = Set.of("java/lang/System", "java/lang/Runtime",
      "java/lang/ProcessBuilder", "java/io/File", "java/nio/file/Files", "java/nio/file/Path",
      "java/nio/channels/FileChannel", "java/io/FileInputStream", "java/io/FileOutputStream",
      "java/io/FileReader", "java/io/FileWriter", "java/io/RandomAccessFile", "java/io/PrintWriter",
      "java/io/PrintStream", "java/util/Formatter", "java/util/Scanner", "java/util/zip/ZipFile",
      "java/util/jar/JarFile");

  private static final int CONSTANT_METHODREF = 10;
  private static final int CONSTANT_INTERFACE_METHODREF = 11;

  private CallRewriter() {
  }

  /** The class's bytes with its calls redirected, or {@code bytes} itself when nothing changes. */
  public static byte[] rewrite(byte[] bytes) {
    ClassReader reader;
    try {
      reader = new ClassReader(bytes);
    } catch (IllegalArgumentException unknownVersion) {
      return bytes;
    }
    if (!namesAnOwner(reader)) {
      return bytes;
    }
    ClassWriter writer = new ClassWriter(reader, 0);
    Redirector redirector = new Redirector(writer);
    try {
      reader.accept(redirector, 0);
    } catch (IllegalArgumentException | ArrayIndexOutOfBoundsException unreadable) {
      return bytes;
    }
    return redirector.changed ? writer.toByteArray() : bytes;
  }

  /** True when the constant pool refers to a method of one of the {@link #OWNERS}. */
  private static boolean namesAnOwner(ClassReader reader) {
    char[] buffer = new char[reader.getMaxStringLength()];
    for (int i = 1; i < reader.getItemCount(); i++) {
      int offset = reader.getItem(i);
      if (offset == 0) {
        continue; // the second slot of a long or double
      }
      int tag = reader.readByte(offset - 1);
      if ((tag == CONSTANT_METHODREF || tag == CONSTANT_INTERFACE_METHODREF)
          && OWNERS.contains(reader.readClass(offset, buffer))) {
        return true;
      }
    }
    return false;
  }

  private static final class Redirector extends ClassVisitor {
    boolean changed;
    private boolean invokeDynamicAllowed;

    Redirector(ClassVisitor next) {
      super(Opcodes.ASM9, next);
    }

    @Override
    public void visit(int version, int access, String name, String signature, String superName,
                      String[] interfaces) {
      // invokedynamic needs a Java 7 class file (major version 51)
      invokeDynamicAllowed = (version & 0xFFFF) >= Opcodes.V1_7;
      super.visit(version, access, name, signature, superName, interfaces);
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                                     String[] exceptions) {
      MethodVisitor next = super.visitMethod(access, name, descriptor, signature, exceptions);
      return new CallSites(next, invokeDynamicAllowed, () -> changed = true);
    }
  }
}
