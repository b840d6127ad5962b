"""`Config`: every setting of a run, from typed parts, TOML-shaped dicts or a TOML file.

`config_from_dict` builds every part from its table, rejecting unknown keys and values of
the wrong type with the key named (`check.check_value`); `load_config` reads a file and
adds its name to every error. Finding the file and dumping a config back to TOML are in
`config.toml`.
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from notechunk.config.check import check, check_value, choice
from notechunk.config.parts import (
    DEFAULT_CONTEXT_DEAD_PHRASES,
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
from notechunk.errors import ConfigError
from notechunk.tokens import HF_ALIASES, check_spec


@dataclass(frozen=True, slots=True, kw_only=True)
class Config:
    """Every setting of a run. Build one typed (`Config(markdown=MarkdownConfig(...))`),
    from a TOML file (`Config.from_toml(path)`), or from TOML-shaped overrides
    (`Config().with_overrides(markdown={"window_max_words": 80})`); each way validates.

    `tokenizer` (`hf:<tokenizer.json>`, `hf:minilm`, `tiktoken:<encoding>`; "" = none) gives
    every chunk a `token_count`; `max_tokens` is the embedder's limit (0 = none): a chunk
    over it is labelled `too_long_tokens` and flagged `too_long_tokens:<n>><limit>`.

    >>> Config().with_overrides(markdown={"window_max_words": 80}).markdown.window_max_words
    80
    >>> Config(tokenizer="hf:minilm", max_tokens=256).max_tokens
    256
    """

    segmenter: str = "default"
    tokenizer: str = ""
    max_tokens: int = 0
    markdown: MarkdownConfig = field(default_factory=MarkdownConfig)
    quality: QualityConfig = field(default_factory=QualityConfig)
    context_dead: ContextDeadConfig = field(default_factory=ContextDeadConfig)
    templates: tuple[Template, ...] = ()
    sheets: SheetsConfig = field(default_factory=SheetsConfig)
    skip: SkipConfig = field(default_factory=SkipConfig)
    dedupe: DedupeConfig = field(default_factory=DedupeConfig)
    qa: QAConfig = field(default_factory=QAConfig)
    engine: str = choice("local", "local", "ray")
    output: OutputConfig = field(default_factory=OutputConfig)
    enrich: EnrichConfig = field(default_factory=EnrichConfig)

    def __post_init__(self) -> None:
        check(bool(self.segmenter.strip()), "segmenter must not be empty")
        check_value(next(f for f in fields(self) if f.name == "engine"), self.engine, "engine")
        check_spec(self.tokenizer)
        check(self.max_tokens >= 0, "max_tokens must be >= 0")
        for key, value in (
            ("max_tokens", self.max_tokens),
            ("markdown.window_max_tokens", self.markdown.window_max_tokens),
        ):
            check(not value or bool(self.tokenizer), f"{key} needs a tokenizer (tokenizer = ...)")
        names = [t.name for t in self.templates]
        dupes = sorted({n for n in names if names.count(n) > 1})
        check(not dupes, f"templates: duplicate name(s) {', '.join(dupes)}")

    def with_segmenter(self, name: str | None) -> Config:
        return self if not name else replace(self, segmenter=name)

    @classmethod
    def from_toml(cls, path: str | Path) -> Config:
        """The config in a TOML file (SPEC §2); a `ConfigError` names the file and key."""
        return load_config(Path(path))

    def with_overrides(self, **tables: object) -> Config:
        """This config with TOML-shaped values merged in, validated like a TOML file:
        `markdown={"window_max_words": 80}` changes one key of [markdown], `tokenizer="hf:x"`
        a top-level key; lists (`templates`, `phrases`) replace the old ones."""
        return config_from_dict(merge(self.to_dict(), tables))

    def to_dict(self) -> dict[str, Any]:
        """Plain dict in TOML shape (tuples as lists, None dropped): `config show` prints it."""
        result: dict[str, Any] = drop_none(asdict(self))
        return result


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


def load_config(path: Path, root: Path | None = None) -> Config:
    """Read a TOML config file; every failure is a `ConfigError` naming the file.

    Paths in it (`enrich.glossary`, `tokenizer = "hf:<file>"`) are read relative to the
    file and must stay inside `root` (default: the file's own folder; `resolve_config`
    gives the user's home for a config the user named that lies there), followed links
    included: a notechunk.toml that came with someone's notes cannot read ~/.env or
    /etc/passwd. A spaCy segmenter there is a package name, never a path."""
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
    return confine_paths(cfg, path, root if root is not None else path.parent)


def confine_paths(cfg: Config, path: Path, root: Path) -> Config:
    """`cfg` of the file `path` with its paths made absolute (relative to the file) and
    checked to lie inside `root`; a `ConfigError` names the key, never the file's text."""
    folder = path.parent
    glossary = cfg.enrich.glossary
    if glossary:
        inside = _inside(folder, glossary, root, path, "enrich.glossary")
        cfg = replace(cfg, enrich=replace(cfg.enrich, glossary=str(inside)))
    spec = cfg.tokenizer
    if spec.startswith("hf:") and spec[3:].strip().lower() not in HF_ALIASES:
        inside = _inside(folder, spec[3:].strip(), root, path, "tokenizer")
        cfg = replace(cfg, tokenizer=f"hf:{inside}")
    if cfg.segmenter.startswith("spacy:"):
        name = cfg.segmenter.removeprefix("spacy:")
        if not re.fullmatch(r"[A-Za-z0-9_][A-Za-z0-9_.-]*", name) or ".." in name:
            raise ConfigError(
                f"{path}: segmenter: a spaCy pipeline in a config file is an installed "
                "package name (spacy:en_core_web_sm), not a path"
            )
    return cfg


def _inside(folder: Path, value: str, root: Path, path: Path, key: str) -> Path:
    """`value` read relative to `folder`, every link resolved, when it lies inside `root`."""
    if value.startswith("~"):
        raise ConfigError(f"{path}: {key}: `~` is not expanded here; give a path inside {root}")
    try:
        real = Path(os.path.realpath(folder / value))
        base = Path(os.path.realpath(root))
    except (OSError, ValueError) as exc:
        why = type(exc).__name__
        raise ConfigError(f"{path}: {key}: cannot resolve the path ({why})") from None
    if not real.is_relative_to(base):
        raise ConfigError(
            f"{path}: {key} names a file outside {root}: a config may only name files in "
            "its own folder (links followed), so it is refused"
        )
    return real
