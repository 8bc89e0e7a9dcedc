"""The runs list's filter, sort order and page, read from a URL's query string.

The query string is the saved form of a filter: ``/runs?workload=terasort&conf=mapreduce.task.io.sort.mb=64``
shows the same runs to whoever opens it. Each bad value is refused with the parameter's name.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from urllib.parse import urlencode

from sqlalchemy import Select, and_, exists, select

from vivace_lab.store.schema import Cluster, Run, RunConfig, Study
from vivace_lab.web.errors import bad_parameter
from vivace_lab.web.limits import BIG_INTEGER_MAX, INTEGER_MAX, whole_number
from vivace_lab.workloads.params import parse_size

#: sort key in the URL -> column
SORTS = {
    "id": Run.id,
    "date": Run.started_at,
    "workload": Run.workload,
    "engine": Run.engine,
    "cluster": Cluster.name,
    "status": Run.status,
    "duration": Run.duration_s,
    "size": Run.input_bytes,
}
NULLABLE_SORTS = ("duration", "size")
STATUSES = ("succeeded", "failed")
PER_PAGE = 50
MAX_PER_PAGE = 500
MAX_PAGE = BIG_INTEGER_MAX // MAX_PER_PAGE  # the offset of any page fits the database's LIMIT/OFFSET
#: derived columns, filterable by name as well as through ``conf=``
COLUMNS = {"maps": Run.maps, "reduces": Run.reduces, "io_sort_mb": Run.io_sort_mb,
           "map_output_codec": Run.map_output_codec, "slots": Run.slots}


@dataclass(frozen=True)
class RunFilter:
    workload: str | None = None
    engine: str | None = None
    status: str | None = None
    cluster: str | None = None
    study: str | None = None
    since: date | None = None  # started on or after this day (UTC)
    until: date | None = None  # started on or before this day (UTC)
    min_size: int | None = None  # input bytes
    max_size: int | None = None
    conf: tuple[tuple[str, str], ...] = ()  # configuration key = effective value
    param: tuple[tuple[str, str], ...] = ()  # workload parameter = value
    columns: tuple[tuple[str, str], ...] = ()  # derived column = value (maps=2)
    sort: str = "id"
    descending: bool = True
    page: int = 1
    per_page: int = PER_PAGE
    raw: dict[str, list[str]] = field(default_factory=dict, compare=False)

    @property
    def is_empty(self) -> bool:
        """True when no condition narrows the runs (sorting and paging aside)."""
        return not any((self.workload, self.engine, self.status, self.cluster, self.study,
                        self.since, self.until, self.min_size is not None,
                        self.max_size is not None, self.conf, self.param, self.columns))

    def apply(self, query: Select) -> Select:
        """``query`` (over runs joined to clusters) narrowed to the filter's runs."""
        conditions = []
        for column, value in ((Run.workload, self.workload), (Run.engine, self.engine),
                              (Run.status, self.status), (Cluster.name, self.cluster)):
            if value is not None:
                conditions.append(column == value)
        if self.study is not None:
            conditions.append(Run.study_id == select(Study.id).where(Study.name == self.study)
                              .scalar_subquery())
        if self.since is not None:
            conditions.append(Run.started_at >= _day_start(self.since))
        if self.until is not None and self.until < date.max:  # the last day bounds nothing
            conditions.append(Run.started_at < _day_start(self.until) + timedelta(days=1))
        if self.min_size is not None:
            conditions.append(Run.input_bytes >= self.min_size)
        if self.max_size is not None:
            conditions.append(Run.input_bytes <= self.max_size)
        for key, value in self.conf:
            conditions.append(exists().where(RunConfig.run_id == Run.id, RunConfig.key == key,
                                             RunConfig.value == value))
        for name, value in self.param:
            conditions.append(Run.params[name].as_string() == value)
        for name, value in self.columns:
            column = COLUMNS[name]
            conditions.append(column == (value if name == "map_output_codec" else int(value)))
        return query.where(and_(*conditions)) if conditions else query

    def ordered(self, query: Select) -> Select:
        column = SORTS[self.sort]
        primary = column.desc() if self.descending else column.asc()
        tie = Run.id.desc() if self.descending else Run.id.asc()
        if self.sort not in NULLABLE_SORTS:  # plain column order: the database can use an index
            return query.order_by(None).order_by(primary, tie)
        # NULLs (no duration, no size) last whichever the direction
        return query.order_by(None).order_by(column.is_(None), primary, tie)

    def paged(self, query: Select) -> Select:
        return query.limit(self.per_page).offset((self.page - 1) * self.per_page)

    def url(self, path: str = "/runs", **changes) -> str:
        """This filter's URL with some query parameters replaced (``None`` removes one)."""
        params = {k: list(v) for k, v in self.raw.items()}
        for key, value in changes.items():
            if value is None:
                params.pop(key, None)
            else:
                params[key] = [str(value)]
        query = urlencode([(k, v) for k, values in params.items() for v in values])
        return f"{path}?{query}" if query else path

    def query_string(self, *drop: str) -> str:
        return urlencode([(k, v) for k, values in self.raw.items() if k not in drop
                          for v in values])


def parse_filter(params: Iterable[tuple[str, str]]) -> RunFilter:
    """A RunFilter from query parameters (a multi-dict's items); empty values are ignored.
    Raises PageError (400) naming the parameter of the first bad value."""
    raw: dict[str, list[str]] = {}
    for key, value in params:
        if value.strip():
            raw.setdefault(key, []).append(value.strip())

    def one(name: str) -> str | None:
        values = raw.get(name)
        return values[-1] if values else None

    status = one("status")
    if status is not None and status not in STATUSES:
        raise bad_parameter("status", f"'{status}' is not a status: {' or '.join(STATUSES)}")
    sort = one("sort") or "id"
    if sort not in SORTS:
        raise bad_parameter("sort", f"cannot sort by '{sort}': one of {', '.join(SORTS)}")
    order = one("order") or "desc"
    if order not in ("asc", "desc"):
        raise bad_parameter("order", f"'{order}' is not an order: asc or desc")
    columns = tuple((name, _column_value(name, value))
                    for name in COLUMNS for value in raw.get(name, ()))
    return RunFilter(
        workload=one("workload"), engine=one("engine"), status=status, cluster=one("cluster"),
        study=one("study"), since=_date("since", one("since")), until=_date("until", one("until")),
        min_size=_size("min_size", one("min_size")), max_size=_size("max_size", one("max_size")),
        conf=tuple(_pair("conf", v) for v in raw.get("conf", ())),
        param=tuple(_pair("param", v) for v in raw.get("param", ())),
        columns=columns, sort=sort, descending=order == "desc",
        page=_positive("page", one("page"), 1, MAX_PAGE),
        per_page=min(MAX_PER_PAGE, _positive("per_page", one("per_page"), PER_PAGE, BIG_INTEGER_MAX)),
        raw=raw,
    )


def _date(name: str, text: str | None) -> date | None:
    if text is None:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise bad_parameter(name, f"'{text}' is not a date (YYYY-MM-DD)") from None


def _size(name: str, text: str | None) -> int | None:
    if text is None:
        return None
    try:
        size = parse_size(text)
    except ValueError as e:
        raise bad_parameter(name, str(e)) from None
    if size > BIG_INTEGER_MAX:
        raise bad_parameter(name, f"'{text}' is more bytes than any run reads (at most {BIG_INTEGER_MAX})")
    return size


def _positive(name: str, text: str | None, default: int, maximum: int) -> int:
    return default if text is None else whole_number(name, text, 1, maximum)


def _pair(name: str, text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise bad_parameter(name, f"'{text}' is not KEY=VALUE")
    return key.strip(), value.strip()


def _column_value(name: str, text: str) -> str:
    if name != "map_output_codec":
        whole_number(name, text, 0, INTEGER_MAX)
    return text


def _day_start(day: date) -> datetime:
    return datetime.combine(day, time(0), tzinfo=UTC)
