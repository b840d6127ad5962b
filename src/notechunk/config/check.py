"""Checks every config value against its field's declared type and range, in one place.

A config part declares each numeric field with `num` (its range) and each string with a
fixed set of values with `choice`; `check_value` reads those declarations, so the bounds
live on the fields rather than in per-key checks, and a TOML file (`config.toml`) and a
typed construction (`Config(...)`) are refused for the same reasons with the same words.
Apart from `config` so that the parts read as their settings, not as validation code.
"""

from __future__ import annotations

import math
from dataclasses import Field, dataclass, field, fields
from typing import Any

from notechunk.errors import ConfigError


@dataclass(frozen=True, slots=True)
class Range:
    lo: float
    hi: float
    lo_open: bool = False
    hi_open: bool = False

    def holds(self, v: float) -> bool:
        above = v > self.lo if self.lo_open else v >= self.lo
        below = v < self.hi if self.hi_open else v <= self.hi
        return above and below

    def __str__(self) -> str:
        lo, hi = (int(v) if float(v).is_integer() else v for v in (self.lo, self.hi))
        return f"{'(' if self.lo_open else '['}{lo}, {hi}{')' if self.hi_open else ']'}"


def num(default: Any, lo: float, hi: float, *, lo_open: bool = False, hi_open: bool = False) -> Any:
    """A numeric field and the range its value must fall in (checked by `check_value`)."""
    return field(default=default, metadata={"range": Range(lo, hi, lo_open, hi_open)})


def choice(default: str, *choices: str) -> Any:
    """A string field that takes one of `choices`."""
    return field(default=default, metadata={"choices": choices})


# a key without a declared range: larger than this is a typo, not a setting
DEFAULT_RANGE = Range(0, 1e9)


def check(ok: bool, message: str) -> None:
    if not ok:
        raise ConfigError(message)


_TYPE_NAMES = {
    "int": "an integer",
    "int | None": "an integer",
    "float": "a number",
    "bool": "true or false",
    "str": "a string",
    "tuple[str, ...]": "a list of strings",
}


def check_value(f: Field[Any], value: Any, key: str) -> Any:
    """`value` for field `f`, checked against its declared type and range (the one place
    every scalar key is validated); ints become floats for float keys."""
    kind = str(f.type)
    if kind not in _TYPE_NAMES or (value is None and kind == "int | None"):
        return value
    want = _TYPE_NAMES[kind]
    if kind == "bool":
        ok = isinstance(value, bool)
    elif kind.startswith("int"):
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif kind == "float":
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        ok = ok and math.isfinite(value)
        want = "a finite number"
    elif kind == "str":
        ok = isinstance(value, str)
    else:
        ok = isinstance(value, (tuple, list)) and all(isinstance(v, str) for v in value)
    bounds = f.metadata.get("range", DEFAULT_RANGE) if kind != "bool" else None
    if ok and bounds is not None and kind != "str" and not kind.startswith("tuple"):
        ok = bounds.holds(value)
        want += f" in {bounds}"
    choices = f.metadata.get("choices")
    if ok and choices:
        ok = value in choices
        want = "one of " + ", ".join(f'"{c}"' for c in choices)
    if not ok:
        raise ConfigError(f"{key} must be {want}, got {value!r}")
    return float(value) if kind == "float" else value


def check_fields(obj: Any) -> None:
    """Validate every scalar field of a config part (`check_value`), for any construction."""
    table = type(obj)._TABLE
    for f in fields(obj):
        check_value(f, getattr(obj, f.name), f"{table}.{f.name}")
