"""A config's file: found (`--config FILE` or `SRC/notechunk.toml`) and dumped as TOML.

`to_toml` renders a config that loads back equal (`config show`, and the cache key).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from notechunk.config.settings import Config, load_config

CONFIG_FILENAME = "notechunk.toml"


def resolve_config(src: Path | None, explicit: Path | None) -> tuple[Config, Path | None]:
    """`--config FILE` if given, else `SRC/notechunk.toml` if present, else the defaults.

    The paths a config names stay inside its folder (`load_config`); a config the user
    named that lies in their home folder, outside SRC (a user-level config), may name
    files anywhere in that home."""
    if explicit is not None:
        return load_config(explicit, _user_root(explicit, src)), explicit
    if src is not None and src.is_dir():
        candidate = src / CONFIG_FILENAME
        if candidate.is_file():
            return load_config(candidate), candidate
    return Config(), None


def _user_root(config: Path, src: Path | None) -> Path | None:
    """The user's home for a config file in it that did not come with the notes."""
    try:
        home = Path.home().resolve()
        real = config.resolve()
        notes = src.resolve() if src is not None else None
    except (OSError, RuntimeError):
        return None
    if notes is not None and real.is_relative_to(notes if notes.is_dir() else notes.parent):
        return None
    return home if real.is_relative_to(home) and home != Path(home.anchor) else None


def to_toml(cfg: Config) -> str:
    """Render a config as TOML (for `config show`); `load` of the result gives `cfg` back."""
    data = cfg.to_dict()
    lines: list[str] = [f"{k} = {_toml_value(data[k])}" for k in _TOP_LEVEL]
    lines.append("")
    for table in ("markdown", "sheets", "skip", "dedupe", "qa", "enrich", "output"):
        lines.append(f"[{table}]")
        lines += [f"{k} = {_toml_value(v)}" for k, v in data[table].items()]
        lines.append("")
    for kind in ("markdown", "spreadsheet"):
        lines.append(f"[quality.{kind}]")
        lines += [f"{k} = {_toml_value(v)}" for k, v in data["quality"][kind].items()]
        lines.append("")
    lines.append("[context_dead]")
    lines.append(f"phrases = {_toml_value(data['context_dead']['phrases'])}")
    lines.append("")
    for t in data["templates"]:
        lines.append("[[templates]]")
        lines += [f"{k} = {_toml_value(v)}" for k, v in t.items()]
        lines.append("")
    return "\n".join(lines)


_TOP_LEVEL = ("segmenter", "tokenizer", "max_tokens", "engine")


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
        return f'"{escaped}"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"cannot render {value!r} as TOML")
