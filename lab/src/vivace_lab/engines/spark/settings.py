"""How a study's configuration keys reach Spark: ``spark.*`` keys are Spark configuration, passed
as they are; ``spark.master`` may only be ``local[N]`` (N task slots; default local[2], the two
slots the Hadoop engines get); Hadoop's keys mean nothing to these jobs and are refused, naming
the key, rather than silently ignored."""

from __future__ import annotations

import re

SPARK_PREFIX = "spark."
MASTER = "spark.master"
DEFAULT_SLOTS = 2
_LOCAL_MASTER = re.compile(r"local\[([1-9][0-9]*)\]")
# Set by the engine itself: the event log is how it records the jobs.
_RESERVED = ("spark.eventLog.",)


class SparkSettingError(ValueError):
    """A configuration key or value the spark engine cannot use."""


def key_problem(key: str) -> str | None:
    """Why the spark engine cannot take this key; None when it can."""
    if not key.startswith(SPARK_PREFIX):
        return (f"'{key}' is not a Spark setting: the spark engine takes only spark.* keys "
                f"(list Hadoop keys in a study without the spark engine)")
    if key.startswith(_RESERVED):
        return f"'{key}' is set by the spark engine itself (it reads the event log)"
    return None


def spark_settings(overrides: dict[str, str]) -> tuple[str, dict[str, str]]:
    """The master and the other Spark configuration of one run's overrides."""
    conf = {}
    for key, value in overrides.items():
        problem = key_problem(key)
        if problem:
            raise SparkSettingError(problem)
        conf[key] = str(value)
    master = conf.pop(MASTER, f"local[{DEFAULT_SLOTS}]")
    if not _LOCAL_MASTER.fullmatch(master):
        raise SparkSettingError(f"{MASTER} '{master}' is not local[N]: the lab runs Spark in local "
                                f"mode with N task slots")
    return master, conf
