import textwrap

import pytest

from vivace_lab.plan.hadoop_keys import vivace_keys
from vivace_lab.plan.queue import plan_queue
from vivace_lab.plan.spec import parse_spec
from vivace_lab.plan.yaml_source import SpecError
from vivace_lab import paths


def spec(text: str) -> str:
    return textwrap.dedent(text).lstrip()


GOOD = spec("""
    name: sweep
    seed: 7
    repeats: 2
    engines: [vivace, hadoop-local]
    workloads:
      - sleep: {maps: [2, 4], map_ms: 0}
      - terasort: {rows: 1000, engines: [vivace]}
      - wordcount: {bytes: 1MiB}
    grid:
      mapreduce.task.io.sort.mb: [16, 32]
      mapreduce.map.output.compress: [true, false]
""")


def test_a_good_spec_expands_workloads_grid_engines_and_repeats(hadoop_keys):
    study = parse_spec(GOOD, "sweep.yaml", hadoop_keys)
    assert study.engines == ("vivace", "hadoop-local")
    assert [p.params["maps"] for p in study.workload_points if p.workload == "sleep"] == ["2", "4"]
    assert study.workload_points[0].params == {"maps": "2", "reduces": "1", "map_ms": "0", "reduce_ms": "1"}
    assert study.workload_points[3].params["bytes"] == str(1024 * 1024)
    assert len(study.grid_points) == 4
    assert {"mapreduce.task.io.sort.mb": "16", "mapreduce.map.output.compress": "true"} in study.grid_points
    queue = plan_queue(study)
    # (2 sleep points + wordcount) x 2 engines + terasort on vivace only, per grid point and repeat
    assert len(queue) == (3 * 2 + 1) * 4 * 2
    assert [run.seq for run in queue] == list(range(len(queue)))
    assert len({run.key for run in queue}) == len(queue)


def test_the_queue_alternates_engines_and_runs_repeats_in_rounds(hadoop_keys):
    study = parse_spec(GOOD, "sweep.yaml", hadoop_keys)
    queue = plan_queue(study)
    sleeps = [run for run in queue if run.workload == "sleep"]
    assert [run.engine for run in sleeps[:4]] == ["vivace", "hadoop-local"] * 2
    first_of_round_two = next(i for i, run in enumerate(queue) if run.repeat == 1)
    assert all(run.repeat == 0 for run in queue[:first_of_round_two])
    assert all(run.repeat == 1 for run in queue[first_of_round_two:])


def test_a_spec_may_ask_for_the_timing_modes_alternating_order(hadoop_keys):
    study = parse_spec(GOOD + "order: alternate\n", "sweep.yaml", hadoop_keys)
    assert study.order == "alternate"
    sleeps = [(run.params["maps"], run.engine, run.repeat) for run in plan_queue(study) if run.workload == "sleep"]
    first = sleeps[0][0]
    assert sleeps[:4] == [(first, "vivace", 0), (first, "hadoop-local", 0), (first, "hadoop-local", 1),
                          (first, "vivace", 1)], "one point's repeats together, the engines' order reversed"


def test_sampling_picks_the_same_grid_points_for_the_same_seed(hadoop_keys):
    sampled = GOOD.replace("repeats: 2", "repeats: 2\nsample: 2")
    first = parse_spec(sampled, "s.yaml", hadoop_keys).grid_points
    again = parse_spec(sampled, "s.yaml", hadoop_keys).grid_points
    assert len(first) == 2 and first == again
    full = parse_spec(GOOD, "s.yaml", hadoop_keys).grid_points
    assert all(point in full for point in first)


@pytest.mark.parametrize("text, line, message", [
    ("name: x\nengines: [vivace]\nworkloads:\n  - terasrot: {rows: 10}\n", 4, "unknown workload 'terasrot'"),
    ("name: x\nengines: [vivace, spork]\nworkloads: [sleep]\n", 2, "unknown engine 'spork'"),
    ("name: x\nengines: [vivace]\nworkloads:\n  - sleep: {mpas: 3}\n", 4, "sleep has no parameter 'mpas'"),
    ("name: x\nengines: [vivace]\nworkloads:\n  - sleep: {maps: many}\n", 4, "maps must be a whole number"),
    ("name: x\nengines: [vivace]\nworkloads:\n  - wordcount: {bytes: 3 parsecs}\n", 4, "is not a size"),
    ("name: x\nengines: [vivace]\nworkloads: [sleep]\ngrid:\n  mapreduce.task.io.sortmb: [1]\n", 5,
     "unknown configuration key 'mapreduce.task.io.sortmb' (did you mean mapreduce.task.io.sort.mb?)"),
    ("name: x\nengines: [vivace]\nworkloads: [sleep]\ngrid:\n  mapreduce.task.io.sort.mb:\n    - 10\n    - lots\n",
     7, "takes a whole number, not 'lots'"),
    ("name: x\nengines: [vivace]\nworkloads: [sleep]\ngrid:\n  mapreduce.map.output.compress: [maybe]\n", 5,
     "takes true or false"),
    ("name: x\nengines: [vivace]\nworkloads: [sleep]\ngrid:\n  vivace.slots: [2, many]\n", 5,
     "vivace.slots takes a whole number from -2147483648 to 2147483647 (int), not 'many'"),
    ("name: x\nengines: [vivace]\nworkloads: [sleep]\ngrid:\n  vivace.slots:\n    - 99999999999\n", 6,
     "vivace.slots takes a whole number from -2147483648 to 2147483647 (int), not '99999999999'"),
    ("name: x\nengines: [vivace]\nworkloads: [sleep]\ngrid:\n  vivace.reduce.merge.ahead: [yes please]\n", 5,
     "vivace.reduce.merge.ahead takes true or false, not 'yes please'"),
    ("name: x\nengines: [vivace]\nworkloads: [sleep]\ngrid:\n  vivace.workloads.bad-records: [ignore]\n", 5,
     "vivace.workloads.bad-records takes one of fail, skip, not 'ignore'"),
    ("name: x\nengines: [vivace]\nworkloads: [sleep]\ngrid:\n  vivace.slot: [2]\n", 5,
     "unknown configuration key 'vivace.slot' (did you mean vivace.slots?)"),
    ("name: x\nengines: [vivace]\nworkloads: [sleep]\nrepeats: 0\n", 4, "repeats must be a whole number of at least 1"),
    ("name: x\nengines: [vivace]\nworkloads: [sleep]\nrepaets: 2\n", 4, "unknown setting 'repaets'"),
    ("engines: [vivace]\nworkloads: [sleep]\n", 1, "'name' is missing"),
    ("name: x\nengines: [vivace]\nworkloads:\n  - sleep: {engines: [hadoop-local]}\n", 4,
     "names engines the study does not list: hadoop-local"),
    ("name: x\nengines: [vivace]\nworkloads: [sleep\n", 4, "not valid YAML"),
    ("name: x\nengines: [vivace, hadoop-tez]\nworkloads:\n  - sleep: {maps: 2}\n  - pagerank: {pages: 50}\n", 5,
     "pagerank is unsupported on hadoop-tez: PageRank decides each iteration from its job's RANK_CHANGE_NANO"),
    ("name: x\nengines: [vivace]\nworkloads: [sleep]\ncluster: {nodemanagers: 2}\n", 4,
     "cluster shapes the cluster of hadoop-yarn, hadoop-tez, vivace-yarn; the study runs none of them"),
    ("name: x\nengines: [hadoop-yarn]\nworkloads: [sleep]\ncluster:\n  nodemanagers: 2\n  nodes: 3\n", 6,
     "the mini-cluster has no setting 'nodes' (its settings: type, nodemanagers, datanodes"),
    ("name: x\nengines: [hadoop-yarn]\nworkloads: [sleep]\ncluster: {datanodes: 0}\n", 4,
     "cluster datanodes must be a whole number of at least 1, not 0"),
    ("name: x\nengines: [hadoop-yarn]\nworkloads: [sleep]\ncluster: {nm_memory_mb: 1024, container_mb: 2048}\n",
     4, "cluster: container_mb 2048 does not fit a NodeManager of nm_memory_mb 1024"),
    ("name: x\nengines: [vivace]\nworkloads: [sleep]\norder: shuffled\n", 4,
     "order must be one of rounds, alternate, not 'shuffled'"),
])
def test_a_bad_spec_is_rejected_naming_the_line(hadoop_keys, text, line, message):
    with pytest.raises(SpecError) as error:
        parse_spec(text, "bad.yaml", hadoop_keys)
    assert str(error.value).startswith(f"bad.yaml:{line}: "), str(error.value)
    assert message in str(error.value)


def test_the_bundled_headline_study_is_valid(hadoop_keys):
    path = paths.bundled_study("headline")
    study = parse_spec(path.read_text(), str(path), hadoop_keys)
    assert study.engines == ("vivace", "hadoop-local", "hadoop-yarn")
    assert {p.workload for p in study.workload_points} >= {"sleep", "terasort", "wordcount", "dfsio-write"}


@pytest.mark.parametrize("key, value", [
    ("vivace.slots", 2),  # Vivace's own, declared in vivace-default.xml
    ("vivace.shuffle.memory.mb", 0),  # a long
    ("vivace.reduce.output.thread", "false"),
    ("vivace.workloads.bad-records", "skip"),  # a choice
    ("vivace.pagerank.damping", 0.9),  # a double
    ("mapreduce.job.output.key.comparator.class", "org.apache.hadoop.io.Text$Comparator"),  # JobConf's
    ("mapreduce.terasort.simplepartitioner", "true"),  # TeraSort's
    ("mapreduce.task.io.sort.mb", 64),  # mapred-default.xml's
    ("tez.am.container.reuse.enabled", "false"),  # Tez's, for hadoop-tez
])
def test_keys_the_code_reads_are_accepted(hadoop_keys, key, value):
    study = parse_spec(f"name: x\nengines: [vivace]\nworkloads: [sleep]\ngrid:\n  {key}: [{value}]\n",
                       "ok.yaml", hadoop_keys)
    assert study.grid_points == ({key: str(value)},)


def test_every_vivace_key_is_checked_with_the_type_vivace_default_xml_declares(hadoop_keys):
    source = paths.vivace_home() / "runtime" / "src" / "main" / "resources" / "vivace-default.xml"
    declared = vivace_keys(source.read_bytes(), str(source))
    assert "vivace.slots" in declared and declared["vivace.slots"].type == "int"
    assert {key: hadoop_keys.types[key] for key in declared} == {key: d.type for key, d in declared.items()}
    assert set(hadoop_keys.types) == set(declared)


def test_a_grid_bundle_sets_its_keys_together(hadoop_keys):
    study = parse_spec(spec("""
        name: x
        engines: [vivace, hadoop-local]
        workloads: [sleep]
        grid:
          slots:
            - {vivace.slots: 1, mapreduce.local.map.tasks.maximum: 1}
            - {vivace.slots: 2, mapreduce.local.map.tasks.maximum: 2}
          mapreduce.task.io.sort.mb: [16, 64]
          compression:
            - {mapreduce.map.output.compress: false}
            - {mapreduce.map.output.compress: true, mapreduce.map.output.compress.codec: org.apache.hadoop.io.compress.Lz4Codec}
    """), "b.yaml", hadoop_keys)
    assert len(study.grid_points) == 2 * 2 * 2
    assert {"vivace.slots": "2", "mapreduce.local.map.tasks.maximum": "2",
            "mapreduce.task.io.sort.mb": "16", "mapreduce.map.output.compress": "false"} in study.grid_points
    assert all(p["vivace.slots"] == p["mapreduce.local.map.tasks.maximum"] for p in study.grid_points)


@pytest.mark.parametrize("grid, line, message", [
    ("  slots:\n    - {vivace.slot: 1}\n", 6, "unknown configuration key 'vivace.slot' (did you mean vivace.slots?)"),
    ("  buffers:\n    - {mapreduce.task.io.sort.mb: lots}\n", 6,
     "mapreduce.task.io.sort.mb takes a whole number, not 'lots'"),
    ("  slots:\n    - {vivace.slots: 1}\n  vivace.slots: [2]\n", 7,
     "'vivace.slots' is set by both 'slots' and 'vivace.slots' in the grid"),
    ("  slots:\n    - {vivace.slots: 1}\n    - 2\n", 7, "each value of the bundle 'slots' must be a mapping"),
    ("  slots:\n    - {}\n", 6, "slots: a bundle's value sets at least one key"),
])
def test_a_bad_grid_bundle_is_rejected_naming_the_line(hadoop_keys, grid, line, message):
    text = "name: x\nengines: [vivace]\nworkloads: [sleep]\ngrid:\n" + grid
    with pytest.raises(SpecError) as error:
        parse_spec(text, "bad.yaml", hadoop_keys)
    assert str(error.value).startswith(f"bad.yaml:{line}: "), str(error.value)
    assert message in str(error.value)


def test_the_bundled_aloja_sweep_study_is_valid(hadoop_keys):
    path = paths.bundled_study("aloja-sweep")
    study = parse_spec(path.read_text(), str(path), hadoop_keys)
    assert study.engines == ("vivace", "hadoop-local")
    assert len(study.grid_points) == 6  # sampled from 12
    assert len(plan_queue(study)) == 60
    assert all(p["vivace.slots"] == p["mapreduce.local.map.tasks.maximum"] for p in study.grid_points)


def test_a_cluster_shapes_the_mini_cluster_of_the_engines_on_it(hadoop_keys):
    study = parse_spec("name: x\nengines: [vivace, hadoop-yarn, hadoop-tez]\nworkloads: [sleep]\n"
                       "cluster: {nodemanagers: 3, datanodes: 2, nm_memory_mb: 4096, container_mb: 512}\n",
                       "c.yaml", hadoop_keys)
    shape = study.cluster
    assert (shape.nodemanagers, shape.datanodes, shape.nm_memory_mb, shape.nm_vcores, shape.container_mb,
            shape.max_am_percent) == (3, 2, 4096, 3, 512, 0.5)
    assert shape.minicluster_options() == (
        "--nodemanagers", "3", "--datanodes", "2", "--nm-memory-mb", "4096", "--nm-vcores", "3",
        "--am-memory-mb", "512", "--map-memory-mb", "512", "--reduce-memory-mb", "512", "--max-am-percent", "0.5")
    assert shape.name("local-2c-24g") == "local-2c-24g-yarn-3x4096m3c-2dn-512m"
    assert shape.describe({"nodes": 1})["minicluster"]["nodemanagers"] == 3
    # without the key, the one-node cluster the studies always had
    default = parse_spec("name: x\nengines: [hadoop-yarn]\nworkloads: [sleep]\n", "d.yaml", hadoop_keys).cluster
    assert (default.nodemanagers, default.datanodes, default.nm_memory_mb, default.container_mb) == (1, 1, 3072, 1024)


@pytest.mark.parametrize("name", ["amax-network", "amax-network-full"])
def test_the_bundled_amax_network_studies_are_valid(hadoop_keys, name):
    path = paths.bundled_study(name)
    study = parse_spec(path.read_text(), str(path), hadoop_keys)
    assert study.engines == ("hadoop-yarn", "hadoop-tez", "vivace-yarn")
    assert study.cluster.real and study.cluster.hosts == 4 and study.cluster.links == ("1gbit", "10gbit")
    queue = plan_queue(study)
    assert [p.link for p in queue] == ["1gbit"] * (len(queue) // 2) + ["10gbit"] * (len(queue) // 2)
    assert {p.workload for p in queue} == {"terasort", "dfsio-write", "dfsio-read"}


def test_an_unsupported_workload_runs_on_the_engines_that_support_it(hadoop_keys):
    study = parse_spec("name: x\nengines: [vivace, hadoop-tez]\nworkloads:\n  - sleep\n"
                       "  - pagerank: {engines: [vivace]}\n", "u.yaml", hadoop_keys)
    assert [(p.workload, p.engines) for p in study.workload_points] == [
        ("sleep", ("vivace", "hadoop-tez")), ("pagerank", ("vivace",))]
