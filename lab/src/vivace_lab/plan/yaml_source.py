"""YAML read into plain values that remember the line they came from, for error messages."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import yaml


class SpecError(ValueError):
    """A study spec that cannot run; the message names the file and line."""


@dataclass(frozen=True)
class Located:
    """A YAML value with the (1-based) line it starts on."""

    value: Any  # str/int/float/bool/None, list[Located] or dict[str, Located]
    line: int

    def plain(self) -> Any:
        """The value without line numbers, recursively."""
        if isinstance(self.value, list):
            return [item.plain() for item in self.value]
        if isinstance(self.value, dict):
            return {key: item.plain() for key, item in self.value.items()}
        return self.value


def load_located(text: str, source: str) -> Located:
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f"{source}:{mark.line + 1}" if mark is not None else source
        raise SpecError(f"{where}: not valid YAML: {getattr(e, 'problem', e)}") from None
    if node is None:
        raise SpecError(f"{source}: the spec is empty")
    return _convert(node, source)


def _convert(node: yaml.Node, source: str) -> Located:
    line = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        out: dict[str, Located] = {}
        for key_node, value_node in node.value:
            key = _scalar(key_node)
            if not isinstance(key, (str, int, float)):
                raise SpecError(f"{source}:{key_node.start_mark.line + 1}: keys must be plain words")
            key = str(key)
            if key in out:
                raise SpecError(f"{source}:{key_node.start_mark.line + 1}: '{key}' appears twice")
            out[key] = _convert(value_node, source)
        return Located(out, line)
    if isinstance(node, yaml.SequenceNode):
        return Located([_convert(item, source) for item in node.value], line)
    return Located(_scalar(node), line)


def _scalar(node: yaml.Node) -> Any:
    if not isinstance(node, yaml.ScalarNode):
        return node
    loader = yaml.SafeLoader("")
    try:
        return loader.construct_object(node, deep=True)
    finally:
        loader.dispose()
