package io.vivace.sandbox.rewrite;

import java.util.Set;
import org.objectweb.asm.Handle;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/** The rewrite of one method's call sites (see {@link CallRewriter}). */
final class CallSites extends MethodVisitor {

  private static final String CALLS = "io/vivace/sandbox/calls/";
  private static final String EXITS = CALLS + "TaskExits";
  private static final String SYSTEM = CALLS + "TaskSystem";
  private static final String PROCESSES = CALLS + "ChildProcesses";
  private static final String PATHS = CALLS + "TaskPaths";

  private static final Handle BOOTSTRAP = new Handle(Opcodes.H_INVOKESTATIC, PATHS, "bootstrap",
      "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;"
          + "Ljava/lang/Class;I)Ljava/lang/invoke/CallSite;", false);

  /** {@code java.io.File} methods that reach the file system (a relative file resolves against a directory). */
  private static final Set<String> FILE_METHODS = Set.of("exists", "isFile", "isDirectory", "isHidden",
      "canRead", "canWrite", "canExecute", "length", "lastModified", "delete", "deleteOnExit", "mkdir", "mkdirs",
      "list", "listFiles", "createNewFile", "renameTo", "setLastModified", "setReadOnly", "setWritable",
      "setReadable", "setExecutable", "getTotalSpace", "getFreeSpace", "getUsableSpace", "getAbsolutePath",
      "getAbsoluteFile", "getCanonicalPath", "getCanonicalFile", "toURI", "toURL");
  /** {@code java.nio.file.Path} methods that resolve a relative path against the working directory. */
  private static final Set<String> PATH_METHODS = Set.of("toAbsolutePath", "toRealPath", "toUri");
  /** Classes whose constructors open a file named by their first argument. */
  private static final Set<String> OPENING_CONSTRUCTORS = Set.of("java/io/FileInputStream",
      "java/io/FileOutputStream", "java/io/FileReader", "java/io/FileWriter", "java/io/RandomAccessFile",
      "java/io/PrintWriter", "java/io/PrintStream", "java/util/Formatter", "java/util/Scanner",
      "java/util/zip/ZipFile", "java/util/jar/JarFile");

  private static final String STRING = "Ljava/lang/String;";
  private static final String FILE = "Ljava/io/File;";
  private static final String PATH = "Ljava/nio/file/Path;";

  private final boolean invokeDynamicAllowed;
  private final Runnable onChange;
  private int extraStack;

  CallSites(MethodVisitor next, boolean invokeDynamicAllowed, Runnable onChange) {
    super(Opcodes.ASM9, next);
    this.invokeDynamicAllowed = invokeDynamicAllowed;
    this.onChange = onChange;
  }

  @Override
  public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
    if (redirectStatic(opcode, owner, name, descriptor) || resolveConstructorPath(opcode, owner, name, descriptor)
        || linkResolved(opcode, owner, name, descriptor)) {
      onChange.run();
      return;
    }
    super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
  }

  @Override
  public void visitMaxs(int maxStack, int maxLocals) {
    super.visitMaxs(maxStack + extraStack, maxLocals);
  }

  /** Exits, process starts and {@code System.getProperty/getenv}: a static method of the same stack effect. */
  private boolean redirectStatic(int opcode, String owner, String name, String descriptor) {
    String target = null;
    String targetName = name;
    String targetDescriptor = descriptor;
    switch (owner) {
      case "java/lang/System" -> {
        if (opcode == Opcodes.INVOKESTATIC && name.equals("exit") && descriptor.equals("(I)V")) {
          target = EXITS;
          targetName = "systemExit";
        } else if (opcode == Opcodes.INVOKESTATIC && (name.equals("getProperty") || name.equals("getenv"))
            && descriptor.startsWith("(" + STRING) && descriptor.endsWith(")" + STRING)) {
          target = SYSTEM;
        }
      }
      case "java/lang/Runtime" -> {
        if (opcode == Opcodes.INVOKEVIRTUAL && (name.equals("exit") || name.equals("halt"))
            && descriptor.equals("(I)V")) {
          target = EXITS;
          targetName = name.equals("exit") ? "runtimeExit" : "runtimeHalt";
          targetDescriptor = "(Ljava/lang/Runtime;I)V";
        } else if (opcode == Opcodes.INVOKEVIRTUAL && name.equals("exec")) {
          target = PROCESSES;
          targetDescriptor = "(Ljava/lang/Runtime;" + descriptor.substring(1);
        }
      }
      case "java/lang/ProcessBuilder" -> {
        if (opcode == Opcodes.INVOKEVIRTUAL && name.equals("start")) {
          target = PROCESSES;
          targetDescriptor = "(Ljava/lang/ProcessBuilder;)Ljava/lang/Process;";
        } else if (opcode == Opcodes.INVOKESTATIC && name.equals("startPipeline")) {
          target = PROCESSES;
        }
      }
      default -> {
      }
    }
    if (target == null) {
      return false;
    }
    super.visitMethodInsn(Opcodes.INVOKESTATIC, target, targetName, targetDescriptor, false);
    return true;
  }

  /**
   * {@code new FileInputStream("name")} and the like: the path argument, the first, is resolved just
   * before the constructor runs. The arguments after it (at most two one-slot values) are moved
   * aside on the operand stack and back, so the {@code new}/{@code dup} before them are untouched.
   */
  private boolean resolveConstructorPath(int opcode, String owner, String name, String descriptor) {
    if (opcode != Opcodes.INVOKESPECIAL || !name.equals("<init>") || !OPENING_CONSTRUCTORS.contains(owner)) {
      return false;
    }
    Type[] args = Type.getArgumentTypes(descriptor);
    if (args.length == 0 || args.length > 3) {
      return false;
    }
    String first = args[0].getDescriptor();
    boolean isPath = first.equals(FILE) || first.equals(PATH)
        || (first.equals(STRING) && !owner.equals("java/util/Scanner")); // Scanner(String) scans the text
    if (!isPath) {
      return false;
    }
    for (int i = 1; i < args.length; i++) {
      if (args[i].getSize() != 1) {
        return false;
      }
    }
    String resolve = "(" + first + ")" + first;
    switch (args.length) {
      case 1 -> super.visitMethodInsn(Opcodes.INVOKESTATIC, PATHS, "resolve", resolve, false);
      case 2 -> {
        super.visitInsn(Opcodes.SWAP);
        super.visitMethodInsn(Opcodes.INVOKESTATIC, PATHS, "resolve", resolve, false);
        super.visitInsn(Opcodes.SWAP);
      }
      default -> { // p a b -> a b p -> a b p' -> p' a b
        super.visitInsn(Opcodes.DUP2_X1);
        super.visitInsn(Opcodes.POP2);
        super.visitMethodInsn(Opcodes.INVOKESTATIC, PATHS, "resolve", resolve, false);
        super.visitInsn(Opcodes.DUP_X2);
        super.visitInsn(Opcodes.POP);
        extraStack = Math.max(extraStack, 2);
      }
    }
    super.visitMethodInsn(opcode, owner, name, descriptor, false);
    return true;
  }

  /** File system calls of {@code File}, {@code Files}, {@code Path} and {@code FileChannel}, through {@code TaskPaths.bootstrap}. */
  private boolean linkResolved(int opcode, String owner, String name, String descriptor) {
    if (!invokeDynamicAllowed) {
      return false;
    }
    int kind;
    String callDescriptor = descriptor;
    switch (owner) {
      case "java/io/File" -> {
        if (opcode == Opcodes.INVOKEVIRTUAL && FILE_METHODS.contains(name)) {
          kind = 1;
          callDescriptor = "(" + FILE + descriptor.substring(1);
        } else if (opcode == Opcodes.INVOKESTATIC && name.equals("createTempFile") && descriptor.contains(FILE + ")")) {
          kind = 0;
        } else {
          return false;
        }
      }
      case "java/nio/file/Files" -> {
        if (opcode != Opcodes.INVOKESTATIC || !descriptor.substring(0, descriptor.indexOf(')')).contains(PATH)) {
          return false;
        }
        kind = 0;
      }
      case "java/nio/channels/FileChannel" -> {
        if (opcode != Opcodes.INVOKESTATIC || !name.equals("open")) {
          return false;
        }
        kind = 0;
      }
      case "java/nio/file/Path" -> {
        if (opcode != Opcodes.INVOKEINTERFACE || !PATH_METHODS.contains(name)) {
          return false;
        }
        kind = 2;
        callDescriptor = "(" + PATH + descriptor.substring(1);
      }
      default -> {
        return false;
      }
    }
    super.visitInvokeDynamicInsn(name, callDescriptor, BOOTSTRAP, Type.getObjectType(owner), kind);
    return true;
  }
}
