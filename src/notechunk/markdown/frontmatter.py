"""YAML front matter as flat metadata: the keys notes use (title, tags, created, aliases).

Not a YAML parser: top-level `key: value` pairs, inline lists (`[a, b]`) and block lists
(`- a` lines under a key) are read; anything nested deeper is kept as its raw text. Its
lines are blanked, not removed, so line numbers stay those of the file.
"""

from __future__ import annotations

from dataclasses import dataclass, field

MAX_LINES = 500


@dataclass(frozen=True, slots=True, kw_only=True)
class FrontMatter:
    metadata: dict[str, str] = field(default_factory=dict)
    lists: dict[str, tuple[str, ...]] = field(default_factory=dict)
    lines: int = 0  # how many lines of the file it took (0: none)

    @property
    def title(self) -> str | None:
        value = self.metadata.get("title", "").strip()
        return value or None

    @property
    def tags(self) -> tuple[str, ...]:
        raw = [*self.lists.get("tags", ()), *self.lists.get("tag", ())]
        out = (t.lstrip("#") for item in raw for t in item.replace(",", " ").split())
        return tuple(dict.fromkeys(t for t in out if t))


def read_front_matter(text: str) -> tuple[FrontMatter, str]:
    """(front matter, body with the front matter lines blanked)."""
    if not text.startswith("---"):
        return FrontMatter(), text
    lines = text.split("\n", MAX_LINES + 1)
    if lines[0].strip() != "---":
        return FrontMatter(), text
    for end in range(1, min(len(lines), MAX_LINES)):
        if lines[end].rstrip() in ("---", "..."):
            fm = _parse(lines[1:end], end + 1)
            rest = text.split("\n", end + 1)[end + 1] if text.count("\n") > end else ""
            return fm, "\n" * (end + 1) + rest
    return FrontMatter(), text


def split_front_matter(text: str) -> tuple[dict[str, str], str]:
    """(flat `key: value` metadata, body with the front matter lines blanked)."""
    fm, body = read_front_matter(text)
    return fm.metadata, body


def _parse(lines: list[str], taken: int) -> FrontMatter:
    meta: dict[str, str] = {}
    lists: dict[str, list[str]] = {}
    key = ""
    for line in lines:
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if line[:1] in (" ", "\t", "-"):
            if key and stripped.startswith("- "):
                lists.setdefault(key, []).append(_unquote(stripped[2:]))
            continue
        name, sep, value = line.partition(":")
        name = name.strip()
        if not sep or not name or len(name) > 100:
            key = ""
            continue
        key = name
        value = value.strip()
        if value.startswith("[") and value.endswith("]"):
            lists[key] = [_unquote(v) for v in value[1:-1].split(",") if v.strip()]
        elif value:
            meta[key] = _unquote(value)
            lists[key] = [meta[key]]
    for name, items in lists.items():
        items[:] = [i for i in items if i]
        if name not in meta or len(items) != 1:
            meta[name] = ", ".join(items)
    return FrontMatter(metadata=meta, lists={k: tuple(v) for k, v in lists.items()}, lines=taken)


def _unquote(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1].strip()
    return value
