"""One frozen `Config` of per-stage parts, loaded from TOML and validated on construction.

Every number a rule uses comes from here, named as SPEC §2 names it. Unknown keys are an
error (a typo silently ignored is a rule silently not applied).
"""

from __future__ import annotations

import tomllib
from dataclasses import MISSING, asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from notechunk.errors import ConfigError

DEFAULT_CONTEXT_DEAD_PHRASES: tuple[str, ...] = (
    "click here",
    "see above",
    "see below",
    "as mentioned",
    "as stated",
    "refer to",
    "for more",
    "for details",
    "as discussed",
    "as shown",
    "as noted",
    "as explained",
    "as described",
    "see also",
    "continued from",
    "contd",
    "same as above",
    "mentioned above",
    "in the previous",
    "as per the above",
)

CONFIG_FILENAME = "notechunk.toml"


@dataclass(frozen=True, slots=True, kw_only=True)
class MarkdownConfig:
    window_sentences: int = 100
    overlap: float = 0.3
    window_max_words: int = 120
    bullet_merge_under_words: int = 20
    bullet_merge_cap_words: int = 150
    timeout_s: float = 300.0

    def __post_init__(self) -> None:
        _check(0 < self.timeout_s <= 86_400, "markdown.timeout_s must be in (0, 86400] seconds")
        _check(self.window_sentences >= 1, "markdown.window_sentences must be >= 1")
        _check(0.0 <= self.overlap < 1.0, "markdown.overlap must be in [0, 1)")
        _check(self.window_max_words >= 0, "markdown.window_max_words must be >= 0")
        _check(self.bullet_merge_under_words >= 0, "markdown.bullet_merge_under_words must be >= 0")
        _check(self.bullet_merge_cap_words >= 0, "markdown.bullet_merge_cap_words must be >= 0")

    @property
    def overlap_sentences(self) -> int:
        return round(self.window_sentences * self.overlap)

    @property
    def step(self) -> int:
        """window − round(window × overlap), at least 1 (SPEC §1.1)."""
        return max(1, self.window_sentences - self.overlap_sentences)


@dataclass(frozen=True, slots=True, kw_only=True)
class QualityBands:
    fragment_words: int
    short_words: int
    max_words: int

    def __post_init__(self) -> None:
        _check(self.fragment_words >= 0, "quality.*.fragment_words must be >= 0")
        _check(
            self.short_words >= self.fragment_words,
            "quality.*.short_words must be >= fragment_words",
        )
        _check(self.max_words >= self.short_words, "quality.*.max_words must be >= short_words")


def _markdown_bands() -> QualityBands:
    return QualityBands(fragment_words=15, short_words=30, max_words=500)


def _sheet_bands() -> QualityBands:
    return QualityBands(fragment_words=8, short_words=12, max_words=200)


@dataclass(frozen=True, slots=True, kw_only=True)
class QualityConfig:
    markdown: QualityBands = field(default_factory=_markdown_bands)
    spreadsheet: QualityBands = field(default_factory=_sheet_bands)


@dataclass(frozen=True, slots=True, kw_only=True)
class ContextDeadConfig:
    phrases: tuple[str, ...] = DEFAULT_CONTEXT_DEAD_PHRASES

    def __post_init__(self) -> None:
        _check(all(p.strip() for p in self.phrases), "context_dead.phrases must not be blank")


@dataclass(frozen=True, slots=True, kw_only=True)
class Template:
    """A `[[templates]]` entry: `text` with `{Column}` fields, applied where `match` globs."""

    name: str
    match: str
    text: str
    sheet: str = "*"
    header_row: int | None = None

    def __post_init__(self) -> None:
        _check(bool(self.name.strip()), "templates.name must not be empty")
        _check(bool(self.match.strip()), f"template {self.name!r}: match must not be empty")
        _check("{" in self.text, f"template {self.name!r}: text has no {{Column}} field")
        _check(
            self.header_row is None or self.header_row >= 1,
            f"template {self.name!r}: header_row is 1-based",
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class SheetsConfig:
    include_hidden: bool = False
    max_rows: int = 2_000_000
    max_unzipped_bytes: int = 1_000_000_000
    max_zip_ratio: float = 200.0
    worker_memory_mb: int = 4096
    worker_timeout_s: float = 600.0
    max_zip_members: int = 10_000
    min_fields: int = 2
    mostly_numeric_share: float = 0.8
    header_search_rows: int = 30

    def __post_init__(self) -> None:
        _check(self.max_zip_members >= 1, "sheets.max_zip_members must be >= 1")
        _check(self.min_fields >= 1, "sheets.min_fields must be >= 1")
        _check(
            0.0 < self.mostly_numeric_share <= 1.0, "sheets.mostly_numeric_share must be in (0, 1]"
        )
        _check(self.header_search_rows >= 1, "sheets.header_search_rows must be >= 1")
        _check(self.max_rows >= 1, "sheets.max_rows must be >= 1")
        _check(self.max_unzipped_bytes >= 1, "sheets.max_unzipped_bytes must be >= 1")
        _check(self.max_zip_ratio > 1, "sheets.max_zip_ratio must be > 1")
        _check(self.worker_memory_mb >= 64, "sheets.worker_memory_mb must be >= 64")
        _check(self.worker_timeout_s > 0, "sheets.worker_timeout_s must be > 0")


@dataclass(frozen=True, slots=True, kw_only=True)
class DedupeConfig:
    """`scope = "context"` (v2): a duplicate is the same text in the same context (title and
    heading path, or sheet); `"text"` restores the seed's rule (the same text anywhere)."""

    scope: str = "context"

    def __post_init__(self) -> None:
        _check(self.scope in ("context", "text"), 'dedupe.scope must be "context" or "text"')


@dataclass(frozen=True, slots=True, kw_only=True)
class QAConfig:
    sample_size: int = 50
    seed: int = 13
    lowest_scores_listed: int = 20

    def __post_init__(self) -> None:
        _check(self.sample_size >= 0, "qa.sample_size must be >= 0")
        _check(self.lowest_scores_listed >= 0, "qa.lowest_scores_listed must be >= 0")


@dataclass(frozen=True, slots=True, kw_only=True)
class EnrichConfig:
    """Enrichment passes (issue 12): what makes a chunk stand alone in `embed_text`.

    `merge_sections`: consecutive tiny sibling sections (each under
    `markdown.bullet_merge_under_words`) become one chunk under their parent, each
    sub-heading kept inline. `references`: "the Act", "he", "these rights" at the start of
    a chunk resolved from the file (`resolved`) or flagged `dangling:<phrase>`; found by
    `references_backend` ("rules", or "spacy:<pipeline>" for entity antecedents).
    `acronyms`: a corpus glossary from the notes' own definitions (plus the `glossary`
    file, one `ACRONYM: expansion` a line) expands each acronym once per chunk.
    """

    merge_sections: bool = True
    references: bool = True
    references_backend: str = "rules"
    acronyms: bool = True
    glossary: str = ""

    def __post_init__(self) -> None:
        backend = self.references_backend
        _check(
            backend == "rules" or (backend.startswith("spacy:") and len(backend) > 6),
            'enrich.references_backend must be "rules" or "spacy:<pipeline>"',
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class Config:
    segmenter: str = "default"
    markdown: MarkdownConfig = field(default_factory=MarkdownConfig)
    quality: QualityConfig = field(default_factory=QualityConfig)
    context_dead: ContextDeadConfig = field(default_factory=ContextDeadConfig)
    templates: tuple[Template, ...] = ()
    sheets: SheetsConfig = field(default_factory=SheetsConfig)
    dedupe: DedupeConfig = field(default_factory=DedupeConfig)
    qa: QAConfig = field(default_factory=QAConfig)
    enrich: EnrichConfig = field(default_factory=EnrichConfig)

    def __post_init__(self) -> None:
        _check(bool(self.segmenter.strip()), "segmenter must not be empty")
        names = [t.name for t in self.templates]
        dupes = sorted({n for n in names if names.count(n) > 1})
        _check(not dupes, f"templates: duplicate name(s) {', '.join(dupes)}")

    def with_segmenter(self, name: str | None) -> Config:
        return self if not name else replace(self, segmenter=name)

    def to_dict(self) -> dict[str, Any]:
        """Plain dict in TOML shape (tuples as lists, None dropped): `config show` prints it."""
        result: dict[str, Any] = _drop_none(asdict(self))
        return result


def _check(ok: bool, message: str) -> None:
    if not ok:
        raise ConfigError(message)


def _drop_none(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _drop_none(v) for k, v in value.items() if v is not None}
    if isinstance(value, (list, tuple)):
        return [_drop_none(v) for v in value]
    return value


def _build(cls: type[Any], data: Any, where: str) -> Any:
    """Construct a config dataclass from a TOML table, rejecting unknown keys and bad types."""
    if not isinstance(data, dict):
        raise ConfigError(f"{where} must be a table")
    allowed = {f.name: f for f in fields(cls)}
    unknown = sorted(set(data) - set(allowed))
    if unknown:
        raise ConfigError(f"unknown key(s) in {where}: {', '.join(unknown)}")
    kwargs: dict[str, Any] = {}
    for key, value in data.items():
        default = allowed[key].default
        default = None if default is MISSING else default
        kwargs[key] = _coerce(value, default, f"{where}.{key}")
    try:
        return cls(**kwargs)
    except TypeError as exc:
        raise ConfigError(f"{where}: {exc}") from None


def _coerce(value: Any, default: Any, where: str) -> Any:
    if isinstance(default, bool) or isinstance(value, bool):
        if not isinstance(value, bool) or (default is not None and not isinstance(default, bool)):
            raise ConfigError(f"{where} must be {type(default).__name__}, got {value!r}")
        return value
    if isinstance(default, float) and isinstance(value, int):
        return float(value)
    if (
        default is not None
        and not isinstance(value, type(default))
        and not isinstance(default, tuple)
    ):
        raise ConfigError(f"{where} must be {type(default).__name__}, got {value!r}")
    return value


def config_from_dict(data: dict[str, Any]) -> Config:
    """Build and validate a `Config` from a parsed TOML document."""
    data = dict(data)
    allowed = {f.name for f in fields(Config)}
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise ConfigError(f"unknown top-level key(s): {', '.join(unknown)}")
    kwargs: dict[str, Any] = {}
    if "segmenter" in data:
        if not isinstance(data["segmenter"], str):
            raise ConfigError("segmenter must be a string")
        kwargs["segmenter"] = data["segmenter"]
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
        for kind, base in (("markdown", _markdown_bands()), ("spreadsheet", _sheet_bands())):
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
    if "dedupe" in data:
        kwargs["dedupe"] = _build(DedupeConfig, data["dedupe"], "dedupe")
    if "qa" in data:
        kwargs["qa"] = _build(QAConfig, data["qa"], "qa")
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
    lines: list[str] = [f"segmenter = {_toml_value(data['segmenter'])}", ""]
    for table in ("markdown", "sheets", "dedupe", "qa", "enrich"):
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
