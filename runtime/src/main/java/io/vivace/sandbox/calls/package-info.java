/**
 * What rewritten job classes call instead of the JDK's calls that would act on the whole JVM:
 * exits ({@link io.vivace.sandbox.calls.TaskExits}), paths relative to the working directory
 * ({@link io.vivace.sandbox.calls.TaskPaths}), child processes
 * ({@link io.vivace.sandbox.calls.ChildProcesses}) and the {@code user.dir}/{@code PWD} the code reads
 * ({@link io.vivace.sandbox.calls.TaskSystem}). Outside a task (no {@link io.vivace.sandbox.TaskScope})
 * every method does exactly what the JDK call it replaces does. The class rewriter
 * ({@link io.vivace.sandbox.rewrite.CallRewriter}) names these methods: their signatures are its
 * contract.
 */
package io.vivace.sandbox.calls;
