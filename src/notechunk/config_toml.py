"""The TOML side of `Config`: load a file or a parsed document, find the file, dump one.

`config_from_dict` builds every part from its table, rejecting unknown keys and values of
the wrong type with the key named (`check_value`); `load_config` adds the file's name to
every error; `resolve_config` picks `--config FILE` or `SRC/notechunk.toml`; `to_toml`
renders a config that loads back equal (`config show`, and the cache key). Apart from
`config` so that the frozen parts and their rules read on their own.
"""

from __future__ import annotations

import tomllib
from dataclasses import asdict, fields, replace
from pathlib import Path
from typing import Any

from notechunk.config import (
    DEFAULT_CONTEXT_DEAD_PHRASES,
    Config,
    ContextDeadConfig,
    DedupeConfig,
    EnrichConfig,
    MarkdownConfig,
    OutputConfig,
    QAConfig,
    QualityBands,
    QualityConfig,
    SheetsConfig,
    SkipConfig,
    Template,
    markdown_bands,
    sheet_bands,
)
from notechunk.config_check import check_value
from notechunk.errors import ConfigError

CONFIG_FILENAME = "notechunk.toml"


def merge(base: dict[str, Any], overrides: dict[str, Any]) -> dict[str, Any]:
    """`base` with `overrides` merged in table by table (`Config.with_overrides`)."""
    out = dict(base)
    for key, value in overrides.items():
        old = out.get(key)
        out[key] = merge(old, value) if isinstance(old, dict) and isinstance(value, dict) else value
    return out


def drop_none(value: Any) -> Any:
    """`value` in TOML shape: None dropped, tuples as lists (`Config.to_dict`)."""
    if isinstance(value, dict):
        return {k: drop_none(v) for k, v in value.items() if v is not None}
    if isinstance(value, (list, tuple)):
        return [drop_none(v) for v in value]
    return value


def _build(cls: type[Any], data: Any, where: str) -> Any:
    """Construct a config dataclass from a TOML table, rejecting unknown keys and bad types."""
    if not isinstance(data, dict):
        raise ConfigError(f"{where} must be a table")
    allowed = {f.name: f for f in fields(cls)}
    unknown = sorted(set(data) - set(allowed))
    if unknown:
        raise ConfigError(f"unknown key(s) in {where}: {', '.join(unknown)}")
    kwargs = {
        key: check_value(allowed[key], value, f"{where}.{key}") for key, value in data.items()
    }
    try:
        return cls(**kwargs)
    except TypeError as exc:
        raise ConfigError(f"{where}: {exc}") from None


def config_from_dict(data: dict[str, Any]) -> Config:
    """Build and validate a `Config` from a parsed TOML document."""
    data = dict(data)
    allowed = {f.name for f in fields(Config)}
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise ConfigError(f"unknown top-level key(s): {', '.join(unknown)}")
    kwargs: dict[str, Any] = {}
    for key in ("segmenter", "tokenizer", "engine"):
        if key in data:
            if not isinstance(data[key], str):
                raise ConfigError(f"{key} must be a string")
            kwargs[key] = data[key]
    if "max_tokens" in data:
        value = data["max_tokens"]
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 1_000_000:
            raise ConfigError(f"max_tokens must be an integer in [0, 1000000], got {value!r}")
        kwargs["max_tokens"] = value
    if "markdown" in data:
        kwargs["markdown"] = _build(MarkdownConfig, data["markdown"], "markdown")
    if "quality" in data:
        q = data["quality"]
        if not isinstance(q, dict):
            raise ConfigError("quality must be a table")
        unknown_q = sorted(set(q) - {"markdown", "spreadsheet"})
        if unknown_q:
            raise ConfigError(f"unknown key(s) in quality: {', '.join(unknown_q)}")
        parts: dict[str, QualityBands] = {}
        for kind, base in (("markdown", markdown_bands()), ("spreadsheet", sheet_bands())):
            if kind in q:
                table = q[kind]
                if not isinstance(table, dict):
                    raise ConfigError(f"quality.{kind} must be a table")
                merged = {**asdict(base), **table}
                parts[kind] = _build(QualityBands, merged, f"quality.{kind}")
        kwargs["quality"] = QualityConfig(**parts)
    if "context_dead" in data:
        cd = data["context_dead"]
        if not isinstance(cd, dict) or set(cd) - {"phrases"}:
            raise ConfigError("context_dead takes only `phrases`")
        phrases = cd.get("phrases", list(DEFAULT_CONTEXT_DEAD_PHRASES))
        if not isinstance(phrases, list) or not all(isinstance(p, str) for p in phrases):
            raise ConfigError("context_dead.phrases must be a list of strings")
        kwargs["context_dead"] = ContextDeadConfig(phrases=tuple(p.lower() for p in phrases))
    if "templates" in data:
        items = data["templates"]
        if not isinstance(items, list):
            raise ConfigError("templates must be an array of tables ([[templates]])")
        templates = []
        for i, item in enumerate(items):
            if not isinstance(item, dict):
                raise ConfigError(f"templates[{i}] must be a table")
            missing = sorted({"name", "match", "text"} - set(item))
            if missing:
                raise ConfigError(f"templates[{i}] lacks {', '.join(missing)}")
            for key in ("name", "match", "text", "sheet"):
                if key in item and not isinstance(item[key], str):
                    raise ConfigError(f"templates[{i}].{key} must be a string")
            templates.append(_build(Template, item, f"templates[{i}]"))
        kwargs["templates"] = tuple(templates)
    if "sheets" in data:
        kwargs["sheets"] = _build(SheetsConfig, data["sheets"], "sheets")
    if "skip" in data:
        kwargs["skip"] = _build(SkipConfig, data["skip"], "skip")
    if "dedupe" in data:
        kwargs["dedupe"] = _build(DedupeConfig, data["dedupe"], "dedupe")
    if "qa" in data:
        kwargs["qa"] = _build(QAConfig, data["qa"], "qa")
    if "output" in data:
        kwargs["output"] = _build(OutputConfig, data["output"], "output")
    if "enrich" in data:
        kwargs["enrich"] = _build(EnrichConfig, data["enrich"], "enrich")
    return Config(**kwargs)


def load_config(path: Path) -> Config:
    """Read a TOML config file; every failure is a `ConfigError` naming the file."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read config ({exc.strerror or exc})") from None
    try:
        data = tomllib.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: config is not UTF-8") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML ({exc})") from None
    except RecursionError:
        raise ConfigError(f"{path}: invalid TOML (nested too deeply)") from None
    try:
        cfg = config_from_dict(data)
    except ConfigError as exc:
        raise ConfigError(f"{path}: {exc}") from None
    glossary = cfg.enrich.glossary
    if glossary and not Path(glossary).is_absolute():  # relative to the config file
        cfg = replace(cfg, enrich=replace(cfg.enrich, glossary=str(path.parent / glossary)))
    return cfg


def resolve_config(src: Path | None, explicit: Path | None) -> tuple[Config, Path | None]:
    """`--config FILE` if given, else `SRC/notechunk.toml` if present, else the defaults."""
    if explicit is not None:
        return load_config(explicit), explicit
    if src is not None and src.is_dir():
        candidate = src / CONFIG_FILENAME
        if candidate.is_file():
            return load_config(candidate), candidate
    return Config(), None


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
