"""Test helper, run as a script: processes that burn CPU and report how much they burnt.

    burn_cpu.py tree DIR S   spawns a "leaf" child; both burn S seconds of CPU from DIR/go
    burn_cpu.py leaf DIR S   burns S seconds of CPU from DIR/go
    burn_cpu.py flash DIR N  from DIR/go, runs N "short" children one after the other
    burn_cpu.py short DIR    burns 0.2 s of CPU (its whole life counts: it starts after DIR/go)

Each writes DIR/ready-PID once it waits for DIR/go (not "short") and DIR/cpu-PID at the end: the
CPU seconds it used after DIR/go ("short": in its whole life).
"""

import os
import subprocess
import sys
import time


def report(directory: str, cpu_s: float) -> None:
    with open(os.path.join(directory, f"cpu-{os.getpid()}"), "w") as f:
        f.write(repr(cpu_s))


def burn(until_cpu_s: float) -> None:
    while time.process_time() < until_cpu_s:
        pass


def main(role: str, directory: str, arg: str = "") -> None:
    if role == "short":
        burn(0.2)
        report(directory, time.process_time())
        return
    me = [sys.executable, os.path.abspath(__file__)]
    kids = [subprocess.Popen([*me, "leaf", directory, arg])] if role == "tree" else []
    open(os.path.join(directory, f"ready-{os.getpid()}"), "w").close()
    while not os.path.exists(os.path.join(directory, "go")):
        time.sleep(0.005)
    t0 = time.process_time()
    if role == "flash":
        for _ in range(int(arg)):
            subprocess.run([*me, "short", directory], check=True)
    else:
        burn(t0 + float(arg))
    for kid in kids:
        kid.wait()
    report(directory, time.process_time() - t0)


if __name__ == "__main__":
    main(*sys.argv[1:])
