"""The configuration values ``runs`` keeps in indexed columns, derived from a run's settings.

Each value comes from the first source that names it: the study's ``overrides`` (the -D keys of
the grid point), then the workload ``params``, then the run record's effective ``configuration``.
Within a source the current Hadoop key is tried before its deprecated name. A value that is named
but does not parse (``${var}``, ``2g``) gives None rather than a guess.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

MAPS_KEYS = ("mapreduce.job.maps", "mapred.map.tasks")
REDUCES_KEYS = ("mapreduce.job.reduces", "mapred.reduce.tasks")
IO_SORT_MB_KEYS = ("mapreduce.task.io.sort.mb", "io.sort.mb")
COMPRESS_KEYS = ("mapreduce.map.output.compress", "mapred.compress.map.output")
CODEC_KEYS = ("mapreduce.map.output.compress.codec", "mapred.map.output.compression.codec")
SLOTS_KEYS = ("vivace.slots", "mapreduce.local.map.tasks.maximum")

_MISSING = object()


def derived_columns(params: Mapping[str, Any], overrides: Mapping[str, Any],
                    configuration: Mapping[str, Any]) -> dict[str, Any]:
    sources = (overrides, params, configuration)
    return {
        "maps": _as_int(_first(sources, MAPS_KEYS, ("maps",))),
        "reduces": _as_int(_first(sources, REDUCES_KEYS, ("reduces",))),
        "io_sort_mb": _as_int(_first(sources, IO_SORT_MB_KEYS, ("io_sort_mb",))),
        "map_output_codec": _codec(sources),
        "slots": _as_int(_first(sources, SLOTS_KEYS, ("slots",))),
    }


def codec_name(codec_class: str) -> str:
    """Short lower-case name of a Hadoop codec class: ``...SnappyCodec`` -> ``snappy``.

    Hadoop's ``DefaultCodec`` (zlib streams, ``.deflate`` files) is called ``deflate``.
    """
    simple = codec_class.strip().rsplit(".", 1)[-1]
    if simple.endswith("Codec"):
        simple = simple[: -len("Codec")]
    simple = simple.lower()
    return "deflate" if simple == "default" else simple


def _first(sources, conf_keys, param_keys):
    overrides, params, configuration = sources
    for source, keys in ((overrides, conf_keys), (params, param_keys + conf_keys),
                         (configuration, conf_keys)):
        for key in keys:
            value = source.get(key, _MISSING)
            if value is not _MISSING and value is not None:
                return value
    return None


def _codec(sources) -> str | None:
    overrides, params, _configuration = sources
    named = params.get("map_output_codec") or params.get("codec")
    if named and not any(key in overrides for key in COMPRESS_KEYS + CODEC_KEYS):
        return codec_name(str(named))
    compress = _first(sources, COMPRESS_KEYS, ())
    if compress is None:
        return None
    if str(compress).strip().lower() != "true":
        return "none"
    codec = _first(sources, CODEC_KEYS, ())
    return codec_name(str(codec)) if codec else "deflate"  # Hadoop's default codec


def _as_int(value: Any) -> int | None:
    if value is None or isinstance(value, bool):
        return None
    try:
        return int(str(value).strip())
    except ValueError:
        return None
