"""Configuration keys that went together in the runs: a grid bundle (vivace.slots with the
LocalJobRunner's slot keys), or the codec with compression on (DefaultCodec meaning off). A request
that sets one of them gets the others' values from the runs, and the recommender searches them as
the combinations measured, never pairing values the runs did not have together."""

from __future__ import annotations


def key_groups(values: dict[str, list]) -> list[list[str]]:
    """Groups of keys, given each key's value in every run: two keys go together when the value
    of one always tells the other's."""
    groups: list[list[str]] = []
    for key in values:
        joined = [g for g in groups if any(_determines(values[key], values[other])
                                           or _determines(values[other], values[key])
                                           for other in g)]
        merged = [k for g in joined for k in g] + [key]
        groups = [g for g in groups if g not in joined] + [merged]
    return sorted(groups, key=lambda g: list(values).index(g[0]))


def _determines(a: list, b: list) -> bool:
    """Each value of ``a`` comes with a single value of ``b`` in every run."""
    seen: dict[str, str] = {}
    return all(seen.setdefault(str(x), str(y)) == str(y) for x, y in zip(a, b))


def companions(values: dict[str, list], given: dict[str, str]) -> dict[str, str]:
    """For keys grouped with the ``given`` ones (and not given themselves), the value they had in
    every run with the given values, where that is a single value."""
    out: dict[str, str] = {}
    for group in key_groups(values):
        asked = [k for k in group if k in given]
        if not asked:
            continue
        runs = [i for i in range(len(values[group[0]]))
                if all(str(values[k][i]) == given[k] for k in asked)]
        for key in group:
            seen = {str(values[key][i]) for i in runs}
            if key not in given and len(seen) == 1:
                out[key] = seen.pop()
    return out
