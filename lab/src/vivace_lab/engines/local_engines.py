"""The engines that run every task inside the driver's JVM on this machine."""

from __future__ import annotations

from vivace_lab.engines.driver import DriverEngine


class VivaceEngine(DriverEngine):
    """The embedded Vivace runtime."""

    name = "vivace"

    def driver_options(self) -> list[str]:
        return ["-D", "mapreduce.framework.name=vivace"]


class HadoopLocalEngine(DriverEngine):
    """Apache's LocalJobRunner from the same classpath, by default with its best settings on a
    2-core machine: 2 map and 2 reduce slots (a study's grid may set other values)."""

    name = "hadoop-local"

    def __init__(self, map_slots: int = 2, reduce_slots: int = 2) -> None:
        self.map_slots = map_slots
        self.reduce_slots = reduce_slots

    def driver_options(self) -> list[str]:
        return ["-D", "mapreduce.framework.name=local",
                "-D", f"mapreduce.local.map.tasks.maximum={self.map_slots}",
                "-D", f"mapreduce.local.reduce.tasks.maximum={self.reduce_slots}"]
