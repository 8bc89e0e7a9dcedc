"""Every route of the web app against a seeded database, on SQLite and on PostgreSQL."""

from __future__ import annotations

import csv
import io
import json
import re
import statistics

import pytest
from fastapi.testclient import TestClient
from webdata import CLOUD_CLUSTER, LOCAL_CLUSTER, SPILLED, STUDY, seed

from vivace_lab.web import create_app


@pytest.fixture
def seeded(store):
    return seed(store)


@pytest.fixture
def client(store, seeded):
    return TestClient(create_app(store))


def listed_ids(html: str) -> list[int]:
    return [int(i) for i in re.findall(r'class="run-link" href="/runs/(\d+)"', html)]


def test_runs_list_shows_every_run_newest_first(client, seeded, store):
    page = client.get("/runs?per_page=500")
    assert page.status_code == 200
    all_ids = sorted((r.id for r in store.runs()), reverse=True)
    assert listed_ids(page.text) == all_ids
    assert f'<span id="match-count">{len(all_ids)}</span>' in page.text


def test_runs_list_filters_by_columns_configuration_parameters_size_and_date(client, seeded):
    vivace = client.get("/runs?workload=terasort&engine=vivace&per_page=500").text
    assert sorted(listed_ids(vivace)) == seeded.terasort_ids("vivace")
    conf = client.get("/runs?conf=mapreduce.task.io.sort.mb=64&per_page=500").text
    assert sorted(listed_ids(conf)) == sorted(seeded.terasort[("vivace", "64")]
                                              + seeded.terasort[("hadoop-local", "64")])
    cloud = client.get(f"/runs?cluster={CLOUD_CLUSTER}&status=succeeded&per_page=500").text
    assert sorted(listed_ids(cloud)) == seeded.terasort_ids("hadoop-local")
    assert listed_ids(client.get("/runs?status=failed").text) == [seeded.failed]
    sleep = client.get("/runs?param=maps=20&per_page=500").text
    assert sorted(listed_ids(sleep)) == sorted(i for ids in seeded.sleep.values() for i in ids)
    sized = client.get("/runs?min_size=9MB&max_size=10MB&per_page=500").text
    assert sorted(listed_ids(sized)) == seeded.terasort_ids()
    study = client.get(f"/runs?study={STUDY}&per_page=500").text
    assert sorted(listed_ids(study)) == seeded.terasort_ids()
    # the terasort record starts on 2025-11-21 (UTC); the sleep runs an hour later, same day
    assert listed_ids(client.get("/runs?until=2025-11-20").text) == []
    assert len(listed_ids(client.get("/runs?since=2025-11-21&per_page=500").text)) == 19
    assert "No run matches this filter" in client.get("/runs?engine=spark").text


def test_runs_list_sorts_and_pages(client, seeded):
    page = client.get("/runs?workload=terasort&sort=duration&order=asc&per_page=500").text
    ids = listed_ids(page)
    assert [seeded.durations[i] for i in ids] == sorted(seeded.durations[i] for i in ids)
    first = listed_ids(client.get("/runs?sort=id&order=asc&per_page=5").text)
    second = client.get("/runs?sort=id&order=asc&per_page=5&page=2").text
    assert listed_ids(second) == [i + 5 for i in first]
    assert "page 2 of 4" in second and 'id="next-page"' in second
    assert "past the last page (4)" in client.get("/runs?per_page=5&page=9").text


def test_downloads_hold_exactly_the_filtered_runs(client, seeded):
    query = "workload=terasort&engine=hadoop-local&sort=duration&order=asc"
    shown = listed_ids(client.get(f"/runs?{query}&per_page=1").text)
    rows = list(csv.DictReader(io.StringIO(client.get(f"/runs.csv?{query}").text)))
    assert [int(r["id"]) for r in rows][:1] == shown
    assert sorted(int(r["id"]) for r in rows) == seeded.terasort_ids("hadoop-local")
    assert {r["conf:mapreduce.task.io.sort.mb"] for r in rows} == {"64", "100"}
    runs = json.loads(client.get(f"/runs.json?{query}").text)
    assert [r["id"] for r in runs] == [int(r["id"]) for r in rows]
    assert client.get("/runs.xml").status_code == 404


@pytest.mark.parametrize("query, parameter", [
    ("status=maybe", "status"), ("sort=colour", "sort"), ("order=up", "order"),
    ("since=yesterday", "since"), ("min_size=lots", "min_size"), ("conf=no-value", "conf"),
    ("page=0", "page"), ("maps=two", "maps"),
])
def test_a_bad_filter_is_a_400_page_naming_the_parameter(client, query, parameter):
    page = client.get(f"/runs?{query}")
    assert page.status_code == 400
    assert f"<p>{parameter}: " in page.text
    assert "Traceback" not in page.text


def test_run_detail_shows_configuration_counters_validation_and_timeline(client, seeded, store):
    run_id = seeded.terasort[("vivace", "64")][0]
    detail = store.run(run_id)
    page = client.get(f"/runs/{run_id}")
    assert page.status_code == 200
    text = page.text
    assert "mapreduce.task.io.sort.mb" in text and detail.validation_detail in text
    assert f"{len(detail.configuration)} keys of the effective configuration" in text
    records = detail.jobs[1].counters["org.apache.hadoop.mapreduce.TaskCounter"]
    assert "{:,}".format(records["MAP_INPUT_RECORDS"]) in text
    tasks = sum(len(job.tasks) for job in detail.jobs)
    assert text.count('class="task"') == tasks
    assert 'data-panels="4"' in text  # CPU, memory, disk, network under the Gantt
    assert text.count('class="area"') == 3  # user, system, iowait stacked


def test_missing_or_malformed_run_is_a_readable_error(client):
    missing = client.get("/runs/999999")
    assert missing.status_code == 404 and "no run 999999" in missing.text
    bad = client.get("/runs/first")
    assert bad.status_code == 400 and "run_id" in bad.text and "Traceback" not in bad.text
    assert client.get("/no/such/page").status_code == 404


def test_failed_run_without_record_has_a_page_and_no_record_download(client, seeded):
    page = client.get(f"/runs/{seeded.failed}")
    assert page.status_code == 200 and "OutOfMemoryError" in page.text
    assert client.get(f"/runs/{seeded.failed}/record.json").status_code == 404


def test_paraver_trace_of_a_run(client, seeded, store):
    run_id = seeded.terasort[("hadoop-local", "100")][1]
    prv = client.get(f"/runs/{run_id}/trace.prv").text.splitlines()
    header = re.fullmatch(r"#Paraver \((\d\d)/(\d\d)/(\d\d) at (\d\d):(\d\d)\):(\d+)_ns:"
                          r"1\((\d+)\):1:1\((\d+):1\)", prv[0])
    assert header, prv[0]
    samples = store.samples(run_id)
    tasks = [t for job in store.run(run_id).jobs for t in job.tasks]
    events = [line.split(":") for line in prv[1:] if line.startswith("2:")]
    states = [line.split(":") for line in prv[1:] if line.startswith("1:")]
    assert len(events) == len(samples) and len(states) == len(tasks)
    times = [int(fields[5]) for fields in (events + states)]
    assert all(t >= 0 for t in times) and max(times) <= int(header.group(6))
    record_times = [int(line.split(":")[5]) for line in prv[1:]]
    assert record_times == sorted(record_times)
    first = dict(zip(events[0][6::2], events[0][7::2]))
    assert int(first["61000001"]) == round(samples[0].cpu_user * 100)
    assert int(first["61000010"]) == samples[0].mem_used_bytes
    pcf = client.get(f"/runs/{run_id}/trace.pcf").text
    for event_type in first:
        assert f"    {event_type}    " in pcf
    assert client.get(f"/runs/{run_id}/trace.row").text.startswith("LEVEL THREAD SIZE")


def test_compare_groups_by_engine_with_ratio_counters_and_overlay(client, seeded):
    page = client.get("/compare?workload=terasort&by=engine").text
    table = page[page.index('id="compare-table"'):]
    # groups in order of their value: hadoop-local first (the baseline), then vivace
    assert table.index("hadoop-local") < table.index("vivace")
    local = [seeded.durations[i] for i in seeded.terasort_ids("hadoop-local")]
    vivace = [seeded.durations[i] for i in seeded.terasort_ids("vivace")]
    ratio = statistics.median(vivace) / statistics.median(local)
    assert f"{ratio:.2f}×" in table
    counters = page[page.index('id="counters-table"'):]
    assert f"TaskCounter.{SPILLED}" in counters
    assert "metrics overlaid" in page and page.count('class="line"') >= 8


def test_compare_selected_runs(client, seeded):
    a, b = seeded.terasort_ids("vivace")[0], seeded.terasort_ids("hadoop-local")[0]
    page = client.get(f"/compare?run={a}&run={b}")
    assert page.status_code == 200
    assert f"run {a} · vivace" in page.text and f"run {b} · hadoop-local" in page.text
    expected = seeded.durations[b] / seeded.durations[a]
    assert f"{expected:.2f}×" in page.text
    assert client.get("/compare?run=x").status_code == 400
    assert client.get("/compare?run=424242").status_code == 404
    assert client.get("/compare?by=colour").status_code == 400


def test_speedup_of_each_value_against_the_average(client, seeded):
    page = client.get("/speedup?workload=terasort&param=conf:mapreduce.task.io.sort.mb").text
    ids = seeded.terasort_ids()
    average = statistics.fmean(seeded.durations[i] for i in ids)
    for sort_mb in ("64", "100"):
        group = [seeded.durations[i] for (e, mb), run_ids in seeded.terasort.items()
                 if mb == sort_mb for i in run_ids]
        speedup = average / statistics.fmean(group)
        assert re.search(rf"<td>{sort_mb}</td><td class=\"num\">6</td><td class=\"num\">"
                         rf"[0-9.]+</td><td class=\"num\">{speedup:.2f}</td>", page), sort_mb
    by_cost = client.get("/speedup?workload=terasort&param=engine&rank=cost").text
    best = by_cost[by_cost.index('id="best-table"'):]
    # vivace on the cheaper cluster and faster: its configurations rank first by cost
    assert best.index("vivace") < best.index("hadoop-local")
    assert client.get("/speedup?rank=price").status_code == 400
    assert client.get("/speedup?workload=nope").status_code == 400
    assert client.get("/speedup?workload=terasort&param=colour").status_code == 400


def point_ys(html: str) -> dict[str, float]:
    return {key: float(y) for key, y in
            re.findall(r'data-key="([^"]+)" data-x="[0-9.]+" data-y="([0-9.]+)"', html)}


def test_cost_page_and_editing_a_price_moves_the_points(client, seeded, store):
    page = client.get("/cost?workload=terasort").text
    before = point_ys(page)
    assert len(before) == 4  # two engines x two sort buffers
    assert f'data-cluster="{LOCAL_CLUSTER}"' in page
    label_y = {name: float(y) for y, name in
               re.findall(r'<text x="[0-9.]+" y="([0-9.]+)" text-anchor="middle" '
                          r'class="quadrant">([a-z, ]+)</text>', page)}
    assert label_y["fast, cheap"] > label_y["fast, expensive"]  # cheap is low on the cost axis
    moved = client.post("/clusters/price", data={"cluster": LOCAL_CLUSTER, "hourly_price": "40",
                                                 "next": "/cost?workload=terasort"},
                        follow_redirects=False)
    assert moved.status_code == 303 and moved.headers["location"] == "/cost?workload=terasort"
    assert {c.name: c.hourly_price for c in store.clusters()}[LOCAL_CLUSTER] == 40.0
    after = point_ys(client.get("/cost?workload=terasort").text)
    vivace = [k for k in before if k.startswith("vivace|")]
    assert all(before[k] < 0.5 < after[k] for k in vivace)  # cheap before, dear now
    bad = client.post("/clusters/price", data={"cluster": LOCAL_CLUSTER, "hourly_price": "-1"})
    assert bad.status_code == 400 and "hourly_price" in bad.text
    unknown = client.post("/clusters/price", data={"cluster": "nowhere", "hourly_price": "1"})
    assert unknown.status_code == 404


def test_cost_page_without_prices_says_how_to_set_them(store):
    store.record_run(seed_free_run())
    client = TestClient(create_app(store))
    page = client.get("/cost").text
    assert "No price for the clusters" in page and "./vivace lab price" in page


def seed_free_run():
    from webdata import terasort_run
    result = terasort_run("vivace", "100", 0, 2.0, 0, 3)
    result.cluster = "unpriced"
    return result


def test_studies_sleep_and_dfsio_pages(client, seeded):
    studies = client.get("/studies").text
    assert STUDY in studies and "complete" in studies
    sleep = client.get("/studies/sleep").text
    for engine, ids in seeded.sleep.items():
        rates = [20 / seeded.durations[i] for i in ids]
        assert f"{engine} on {LOCAL_CLUSTER}: 20 maps × 1 ms" in sleep
        for rate in rates:
            assert f"{rate:.1f}" in sleep
        assert f"{statistics.fmean(rates):.1f}" in sleep
    dfsio = client.get("/studies/dfsio").text
    assert "410.0" in dfsio and "205.0" in dfsio and "451.0" in dfsio  # avg IO rate = 1.1 x
    assert "Average IO rate mb/sec" in dfsio and "1.50" in dfsio  # job wall time in seconds


def cells(html: str, row_attribute: str) -> dict[str, list[str]]:
    """The cells of each table row carrying ``row_attribute``, by its value; the label cell dropped."""
    rows = re.findall(rf'<tr {row_attribute}="([^"]+)">(.*?)</tr>', html)
    return {key: re.findall(r"<td[^>]*>(.*?)</td>", row)[1:] for key, row in rows}


def chart(html: str, label: str) -> str:
    found = re.search(rf'<svg [^>]*aria-label="{re.escape(label)}".*?</svg>', html)
    assert found, f"no chart '{label}'"
    return found.group(0)


def bar_values(svg: str, series: str) -> list[float]:
    return [float(v) for v in re.findall(rf'data-series="{re.escape(series)}" data-bin="\d+" '
                                         r'data-value="([^"]+)"', svg)]


def test_swim_page_shows_the_latest_swim_studys_analysis(store):
    from swimdata import replay, seed_swim_study

    from vivace_lab.analysis import swim
    from vivace_lab.report.formatting import factor, seconds

    older = store.open_study("swim-older", "name: swim-older", 1, [])
    store.record_run(replay("vivace", {0: 1.5, 1: 1.5, 2: 1.5, 3: 1.5}), study_id=older.id)
    latest = seed_swim_study(store, "swim-latest")
    analysis = swim.analyse(store, latest)
    client = TestClient(create_app(store))
    page = client.get("/studies/swim").text

    assert '<option value="swim-latest" selected>' in page
    assert cells(page, "data-engine") == {
        row.engine: [str(row.jobs), str(row.failed), seconds(row.min_s), seconds(row.mean_s),
                     seconds(row.p50_s), seconds(row.p95_s), seconds(row.p99_s),
                     seconds(row.max_s), seconds(row.total_s)] for row in analysis.durations}
    [latency] = analysis.latency_ratios
    assert cells(page, "data-latency") == {f"{latency.numerator}/{latency.denominator}": [
        str(latency.matched), f"{seconds(latency.numerator_mean_s)} / {seconds(latency.denominator_mean_s)}",
        factor(latency.mean), factor(latency.p50), factor(latency.p95), factor(latency.p99)]}
    [pair] = analysis.pairs
    assert cells(page, "data-pair") == {f"{pair.other}/{pair.baseline}": [
        str(len(pair.ratios)), str(pair.unpaired), factor(pair.min), factor(pair.mean),
        factor(pair.median), factor(pair.max), factor(pair.total_time_ratio)]}

    name = f"{pair.other} / {pair.baseline}"
    _, counts = swim.ratio_histogram([r.ratio for r in pair.ratios])
    assert bar_values(chart(page, f"{name}: per-job ratios"), "jobs") == counts
    for what, size_of in (("input + output", lambda r: r.input_output_bytes),
                          ("shuffle", lambda r: r.shuffle_bytes)):
        points = re.findall(r'data-key="(\d+)" data-x="([^"]+)" data-y="([^"]+)"',
                            chart(page, f"{name} against {what}"))
        assert [(int(k), float(x), float(y)) for k, x, y in points] == [
            (r.index, max(size_of(r), 1), pytest.approx(r.ratio, rel=1e-5)) for r in pair.ratios]
    for histogram in analysis.sizes:
        svg = chart(page, f"{histogram.kind.replace('_', ' + ')} sizes")
        replayed = sum(histogram.replayed)
        assert bar_values(svg, f"replayed ({replayed})") == pytest.approx(
            [c / replayed for c in histogram.replayed], rel=1e-5)
        assert bar_values(svg, f"whole trace ({sum(histogram.trace)})") == pytest.approx(
            [c / sum(histogram.trace) for c in histogram.trace], rel=1e-5)
    assert "map failed: boom" in page and 'id="swim-failures"' in page

    chosen = client.get("/studies/swim?study=swim-older").text
    assert list(cells(chosen, "data-engine")) == ["vivace"]
    assert "1.500" in chosen and 'id="swim-ratios"' not in chosen
    unknown = client.get("/studies/swim?study=nope")
    assert unknown.status_code == 400 and "study: no study &#39;nope&#39; with SWIM runs" in unknown.text


def test_empty_database_pages_name_the_command_that_fills_them(store):
    client = TestClient(create_app(store))
    for path, command in (("/runs", "run"), ("/compare", "run"), ("/speedup", "run"),
                          ("/cost", "run"), ("/studies", "run"), ("/studies/sleep", "run"),
                          ("/studies/dfsio", "run"), ("/studies/swim", "swim")):
        page = client.get(path)
        assert page.status_code == 200, path
        assert f"./vivace lab {command}" in page.text, path
    assert client.get("/").url.path == "/runs"


def test_long_series_are_averaged_in_sql_buckets(store):
    from rundata import samples as make_samples
    from webdata import terasort_run

    from vivace_lab.web import queries

    result = terasort_run("vivace", "100", 0, 2.0, 0, 0)
    result.samples = make_samples(result.started_ms, 1000)
    run_id = store.record_run(result)
    with store.reading() as session:
        points = queries.series(session, run_id, max_points=100)
        raw = queries.series(session, run_id, max_points=5000)
    samples = result.samples
    assert len(raw) == len(samples)  # few enough: one point per sample
    assert [p.cpu_user for p in raw] == pytest.approx([s.cpu_user for s in samples])
    first, last = samples[0].t_ms, samples[-1].t_ms
    width = -(-(last - first + 1) // 100)
    buckets: dict[int, list] = {}
    for s in samples:
        buckets.setdefault((s.t_ms - first) // width, []).append(s)
    assert len(points) == len(buckets) <= 100
    for point, (_, group) in zip(points, sorted(buckets.items())):
        assert point.end_ms == group[-1].t_ms
        assert point.cpu_user == pytest.approx(statistics.fmean(s.cpu_user for s in group))
        written = sum(s.disk_write_bytes for s in group)
        assert point.disk_write_rate == pytest.approx(written / sum(s.interval_s for s in group))


def test_a_server_failure_is_a_page_with_the_error_not_a_stack_trace(store_url, store, seeded):
    from sqlalchemy import text

    from vivace_lab.store.database import make_engine

    broken = make_engine(store_url)  # someone drops a table under the running app
    try:
        with broken.begin() as conn:
            conn.execute(text("DROP TABLE metric_samples"))
    finally:
        broken.dispose()
    client = TestClient(create_app(store), raise_server_exceptions=False)
    page = client.get(f"/runs/{seeded.terasort_ids()[0]}")
    assert page.status_code == 500
    assert "The server failed on this page" in page.text and "metric_samples" in page.text
    assert "Traceback" not in page.text and 'File "' not in page.text


HUGE = "9" * 40  # beyond any integer a database holds


@pytest.mark.parametrize("url,parameter", [
    (f"/runs?page={HUGE}", "page"), (f"/runs?page={2**62}", "page"), ("/runs?page=-1", "page"),
    (f"/runs?per_page={HUGE}", "per_page"), ("/runs?per_page=-5", "per_page"),
    (f"/runs?min_size={HUGE}", "min_size"), ("/runs?min_size=-1", "min_size"), (f"/runs?max_size={HUGE}", "max_size"),
    (f"/runs?maps={HUGE}", "maps"), ("/runs?reduces=-3", "reduces"), (f"/runs?slots={2**31}", "slots"),
    (f"/runs.csv?page={HUGE}", "page"), (f"/runs.json?max_size={HUGE}", "max_size"),
    (f"/compare?run={HUGE}", "run"), (f"/compare?run=1,{2**31}", "run"), ("/compare?run=-1", "run"),
    (f"/runs/{HUGE}", "run_id"), (f"/runs/{2**31}", "run_id"), ("/runs/-1", "run_id"), ("/runs/0", "run_id"),
    (f"/runs/{2**63}/record.json", "run_id"), (f"/runs/{HUGE}/trace.prv", "run_id"),
    (f"/runs/{HUGE}/trace.pcf", "run_id"), (f"/runs/{HUGE}/trace.row", "run_id"),
    ("/runs?workload=%00", "workload"), ("/runs?conf=a%00=b", "conf"), ("/runs?param=maps=%00", "param"),
    ("/cost?workload=tera%00", "workload"), ("/speedup?workload=%00", "workload"),
    ("/studies/swim?study=%00", "study"), ("/compare?by=%00", "by"),
])
def test_out_of_range_numbers_and_nul_text_are_400_pages_naming_the_parameter(client, url, parameter):
    """Values no database column can hold (PostgreSQL's INTEGER is 32-bit, SQLite's 64-bit; text
    holds no NUL) would make the database driver fail: a bad request, not a server failure."""
    page = client.get(url)
    assert page.status_code == 400, page.text
    assert f"{parameter}: " in page.text and "Traceback" not in page.text


def test_the_largest_values_that_fit_are_answered(client, seeded):
    assert client.get(f"/runs/{2**31 - 1}").status_code == 404
    last_page = client.get(f"/runs?per_page=500&page={(2**63 - 1) // 500}")
    assert last_page.status_code == 200 and "past the last page" in last_page.text
    assert client.get(f"/runs?min_size={2**63 - 1}").status_code == 200
    everything = client.get("/runs?since=0001-01-01&until=9999-12-31&per_page=500")
    assert everything.status_code == 200
    assert sorted(listed_ids(everything.text)) == sorted(listed_ids(client.get("/runs?per_page=500").text))


def test_a_price_for_a_cluster_name_with_nul_is_a_400(client):
    bad = client.post("/clusters/price", data={"cluster": "x\x00", "hourly_price": "1"})
    assert bad.status_code == 400 and "cluster: text with a NUL character" in bad.text
