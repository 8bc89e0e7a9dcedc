import pytest

from vivace_lab import paths
from vivace_lab.plan.hadoop_keys import HadoopKeys, classpath_jars


@pytest.fixture(scope="session")
def hadoop_keys() -> HadoopKeys:
    """Keys and defaults read from the real Hadoop jars the runs use (builds the Java side if needed)."""
    return HadoopKeys.from_jars(classpath_jars(paths.vivace_home(), paths.launcher()))
