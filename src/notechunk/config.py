"""One frozen `Config` of per-stage parts, loaded from TOML and validated on construction.

Every number a rule uses comes from here, named as SPEC §2 names it. Unknown keys are an
error (a typo silently ignored is a rule silently not applied). Every scalar key is checked
in one place (`_check_value`) against its field's declared type and range: an integer key
takes an integer (`true` and `2.5` are refused), a float key a finite number, each within
the bounds its field declares (`_num`), so `worker_timeout_s = inf` or
`worker_memory_mb = 2**63-1` stop at load with the key named, not deep inside a run.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import MISSING, Field, asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any, ClassVar

from notechunk.errors import ConfigError
from notechunk.tokens import check_spec

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


@dataclass(frozen=True, slots=True)
class _Range:
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


def _num(
    default: Any, lo: float, hi: float, *, lo_open: bool = False, hi_open: bool = False
) -> Any:
    """A numeric field and the range its value must fall in (checked by `_check_value`)."""
    return field(default=default, metadata={"range": _Range(lo, hi, lo_open, hi_open)})


def _choice(default: str, *choices: str) -> Any:
    """A string field that takes one of `choices`."""
    return field(default=default, metadata={"choices": choices})


# a key without a declared range: larger than this is a typo, not a setting
_DEFAULT_RANGE = _Range(0, 1e9)


@dataclass(frozen=True, slots=True, kw_only=True)
class MarkdownConfig:
    _TABLE: ClassVar[str] = "markdown"
    window_sentences: int = _num(100, 1, 1_000_000)
    overlap: float = _num(0.3, 0, 1, hi_open=True)
    window_max_words: int = _num(120, 0, 1_000_000)
    window_max_tokens: int = _num(0, 0, 1_000_000)
    bullet_merge_under_words: int = _num(20, 0, 1_000_000)
    bullet_merge_cap_words: int = _num(150, 0, 1_000_000)
    bold_headings: bool = True  # a bold-only line followed by content is a heading (v2)
    heading_max_words: int = _num(15, 1, 1_000)  # a longer heading is cut in the path
    timeout_s: float = _num(300.0, 0, 86_400, lo_open=True)

    def __post_init__(self) -> None:
        _check_fields(self)

    @property
    def overlap_sentences(self) -> int:
        return round(self.window_sentences * self.overlap)

    @property
    def step(self) -> int:
        """window − round(window × overlap), at least 1 (SPEC §1.1)."""
        return max(1, self.window_sentences - self.overlap_sentences)


@dataclass(frozen=True, slots=True, kw_only=True)
class QualityBands:
    """Word-count bands of the quality labels; `omit_fragments` (v2: false) omits
    fragments instead of only flagging them (the seed's spreadsheet rule)."""

    _TABLE: ClassVar[str] = "quality.*"
    fragment_words: int = _num(MISSING, 0, 1_000_000)
    short_words: int = _num(MISSING, 0, 1_000_000)
    max_words: int = _num(MISSING, 0, 1_000_000)
    omit_fragments: bool = False

    def __post_init__(self) -> None:
        _check_fields(self)
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
    """A `[[templates]]` entry: `text` with `{Column}` fields, applied where `match` globs.

    The text is parsed here, so a template that cannot work (no field, an unbalanced
    brace, every field optional) stops the load with its name and the problem.
    """

    _TABLE: ClassVar[str] = "templates"
    name: str
    match: str
    text: str
    sheet: str = "*"
    header_row: int | None = _num(None, 1, 1_048_576)

    def __post_init__(self) -> None:
        _check_fields(self)
        _check(bool(self.name.strip()), "templates.name must not be empty")
        _check(bool(self.match.strip()), f"template {self.name!r}: match must not be empty")
        from notechunk.sheets.syntax import template_problem

        problem = template_problem(self.text)
        _check(problem is None, f"template {self.name!r}: text {self.text!r}: {problem}")


@dataclass(frozen=True, slots=True, kw_only=True)
class SheetsConfig:
    """Reading limits. `max_cell_chars` cuts a longer cell (32,767 is Excel's own cell
    limit), flagged `cell_cut:<ref>:<chars>`; a workbook stops being read, with its reason
    in errors.json, past `max_cells` non-empty cells or past `max_expansion` characters of
    cell text per byte of the file (beyond the first MB): an 833-byte ODS that repeats a
    row 200,000 times is an amplification, not a table."""

    _TABLE: ClassVar[str] = "sheets"
    include_hidden: bool = False
    max_rows: int = _num(2_000_000, 1, 1e12)
    max_unzipped_bytes: int = _num(1_000_000_000, 1, 1 << 50)
    max_zip_ratio: float = _num(200.0, 1, 1e9, lo_open=True)
    worker_memory_mb: int = _num(4096, 64, 1 << 24)
    worker_timeout_s: float = _num(600.0, 0, 7 * 86_400, lo_open=True)
    max_zip_members: int = _num(10_000, 1, 10_000_000)
    min_fields: int = _num(2, 1, 10_000)
    mostly_numeric_share: float = _num(0.8, 0, 1, lo_open=True)
    header_search_rows: int = _num(30, 1, 10_000)
    max_cell_chars: int = _num(32_767, 16, 1 << 30)
    max_cells: int = _num(20_000_000, 1, 1e12)
    max_expansion: float = _num(1000.0, 1, 1e9)

    def __post_init__(self) -> None:
        _check_fields(self)


@dataclass(frozen=True, slots=True, kw_only=True)
class SkipConfig:
    """Early row skipping. `mostly_numeric = "label"` (v2) discards a mostly-numeric row
    only when no cell is a text label; `"ratio"` restores the seed's rule (the share alone)."""

    _TABLE: ClassVar[str] = "skip"
    mostly_numeric: str = _choice("label", "label", "ratio")

    def __post_init__(self) -> None:
        _check_fields(self)


@dataclass(frozen=True, slots=True, kw_only=True)
class DedupeConfig:
    """`scope = "context"` (v2): a duplicate is the same text in the same context (title and
    heading path, or sheet); `"text"` restores the seed's rule (the same text anywhere)."""

    _TABLE: ClassVar[str] = "dedupe"
    scope: str = _choice("context", "context", "text")

    def __post_init__(self) -> None:
        _check_fields(self)


@dataclass(frozen=True, slots=True, kw_only=True)
class QAConfig:
    _TABLE: ClassVar[str] = "qa"
    sample_size: int = _num(50, 0, 1e9)
    seed: int = _num(13, 0, 2**32 - 1)
    lowest_scores_listed: int = _num(20, 0, 1e9)

    def __post_init__(self) -> None:
        _check_fields(self)


@dataclass(frozen=True, slots=True, kw_only=True)
class OutputConfig:
    """Which chunk files a run writes: `chunks.jsonl.gz` (`jsonl`) and `chunks.parquet`
    (`parquet`, needs pyarrow: `pip install 'notechunk[parquet]'`, off by default so a
    default install never fails for it). At least one of the two."""

    _TABLE: ClassVar[str] = "output"
    jsonl: bool = True
    parquet: bool = False

    def __post_init__(self) -> None:
        _check_fields(self)
        _check(self.jsonl or self.parquet, "output: jsonl and parquet cannot both be false")


@dataclass(frozen=True, slots=True, kw_only=True)
class EnrichConfig:
    """Enrichment passes (issue 12): what makes a chunk stand alone in `embed_text`.

    `merge_sections`: consecutive tiny sibling sections (each under
    `markdown.bullet_merge_under_words`) become one chunk under their parent, each
    sub-heading kept inline. `references`: "the Act", "he", "these rights" at the start of
    a chunk resolved from the file (`resolved`) or flagged `dangling:<phrase>`; found by
    `references_backend` ("rules", or "spacy:<pipeline>" for entity antecedents).
    `acronyms`: a corpus glossary from the notes' own definitions (plus the `glossary`
    file, one `ACRONYM: expansion` a line) expands each acronym once per chunk; the
    glossary and the undefined acronyms are reported in QA either way.
    """

    _TABLE: ClassVar[str] = "enrich"
    merge_sections: bool = True
    # references and acronyms are off by default: on COVID-QA, SQuAD and the sample neither
    # raises recall@budget on one set without losing a question on another (README)
    references: bool = False
    references_backend: str = "rules"
    acronyms: bool = False
    glossary: str = ""

    def __post_init__(self) -> None:
        _check_fields(self)
        backend = self.references_backend
        _check(
            backend == "rules" or (backend.startswith("spacy:") and len(backend) > 6),
            'enrich.references_backend must be "rules" or "spacy:<pipeline>"',
        )


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
    engine: str = _choice("local", "local", "ray")
    output: OutputConfig = field(default_factory=OutputConfig)
    enrich: EnrichConfig = field(default_factory=EnrichConfig)

    def __post_init__(self) -> None:
        _check(bool(self.segmenter.strip()), "segmenter must not be empty")
        _check_value(next(f for f in fields(self) if f.name == "engine"), self.engine, "engine")
        check_spec(self.tokenizer)
        _check(self.max_tokens >= 0, "max_tokens must be >= 0")
        for key, value in (
            ("max_tokens", self.max_tokens),
            ("markdown.window_max_tokens", self.markdown.window_max_tokens),
        ):
            _check(not value or bool(self.tokenizer), f"{key} needs a tokenizer (tokenizer = ...)")
        names = [t.name for t in self.templates]
        dupes = sorted({n for n in names if names.count(n) > 1})
        _check(not dupes, f"templates: duplicate name(s) {', '.join(dupes)}")

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
        return config_from_dict(_merge(self.to_dict(), tables))

    def to_dict(self) -> dict[str, Any]:
        """Plain dict in TOML shape (tuples as lists, None dropped): `config show` prints it."""
        result: dict[str, Any] = _drop_none(asdict(self))
        return result


def _check(ok: bool, message: str) -> None:
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


def _check_value(f: Field[Any], value: Any, key: str) -> Any:
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
    bounds = f.metadata.get("range", _DEFAULT_RANGE) if kind != "bool" else None
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


def _check_fields(obj: Any) -> None:
    """Validate every scalar field of a config part (`_check_value`), for any construction."""
    table = type(obj)._TABLE
    for f in fields(obj):
        _check_value(f, getattr(obj, f.name), f"{table}.{f.name}")


def _merge(base: dict[str, Any], overrides: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in overrides.items():
        old = out.get(key)
        out[key] = (
            _merge(old, value) if isinstance(old, dict) and isinstance(value, dict) else value
        )
    return out


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
    kwargs = {
        key: _check_value(allowed[key], value, f"{where}.{key}") for key, value in data.items()
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
