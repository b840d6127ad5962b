"""merge_tiny_sections: consecutive tiny sibling sections as one chunk under their parent.

Notes are full of `## Treatment` sections whose whole text is "Doxycycline": a one-word
chunk that only its heading makes meaningful. A run of at least two consecutive windows,
each a whole section of fewer than `bullet_merge_under_words` words, whose sections are
siblings (the same parent path), optionally led by their parent's own whole tiny body
(a section followed by its own tiny children leads them rather than joining its siblings),
becomes one window while it stays within the cap (`bullet_merge_cap_words`, and
`window_max_words` when that is set), counting the sub-headings it says inline
("Treatment: Doxycycline"). The runner gives the merged chunk the parent's path, every
section path (`section_paths`) and the flag `merged_sections`. This pass runs before the
header+bullet merge, which then sees the merged window like any other.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from notechunk.chunk import count_words
from notechunk.config import MarkdownConfig
from notechunk.markdown.windows import Sentence, Window

Path = tuple[str, ...]
Render = Callable[[Window], str]
_BULLET = "- "


def merge_tiny_sections(
    windows: Sequence[Window],
    sentences: Sequence[Sequence[Sentence]],
    paths: Sequence[Path],
    cfg: MarkdownConfig,
) -> list[Window]:
    """The windows with each run of tiny sibling sections joined (see the module doc).

    `sentences[i]` and `paths[i]` are section i's sentences and heading path."""
    cap = cfg.bullet_merge_cap_words
    if cfg.window_max_words:
        cap = min(cap, cfg.window_max_words)
    out: list[Window] = []
    run: list[Window] = []
    parent: Path | None = None
    words = 0
    tiny = [_whole_tiny_section(w, sentences, cfg.bullet_merge_under_words) for w in windows]
    for k, w in enumerate(windows):
        sec = tiny[k]
        if sec is None:
            out += _flush(run, parent, paths)
            run, parent = [], None
            out.append(w)
            continue
        path = paths[sec]
        nxt = tiny[k + 1] if k + 1 < len(windows) else None
        leads = nxt is not None and paths[nxt][:-1] == path  # its own children follow
        if run and not leads:
            first = paths[run[0].parts[0][0]]
            joins_as = _family(first, path) if len(run) == 1 else parent
            cost = w.words + _label_words(path)
            repeated = any(paths[r.parts[0][0]] == path for r in run)  # a copy: dedupe's
            fits = words + cost <= cap
            if joins_as is not None and path[:-1] == joins_as and fits and not repeated:
                parent = joins_as
                words += cost
                run.append(w)
                continue
        out += _flush(run, parent, paths)
        run, parent = [w], None
        words = w.words + _label_words(path)  # counted as a child until a sibling decides
    out += _flush(run, parent, paths)
    return out


def inline_text(
    window: Window, paths: Sequence[Path], render: Render, parent: Path | None = None
) -> str:
    """The window's text, each inline section said once as "Heading: text" (a one-line
    bullet loses its marker; a longer body goes on the lines under "Heading:"), the
    heading being its path below `parent` (default: the window's common parent), so a
    merged section's heading is always in the text. `render` gives the text of a one-part
    window, as the runner joins sentences."""
    if parent is None:
        parent = common_parent([paths[sec] for sec, _, _ in window.parts])
    out: list[str] = []
    said: set[int] = set()
    for part in window.parts:
        body = render(Window(parts=(part,), words=0, bullet=False))
        sec = part[0]
        below = paths[sec][len(parent) :] if paths[sec][: len(parent)] == parent else paths[sec]
        if sec not in window.inline or not below or sec in said:
            out.append(body)
            continue
        said.add(sec)
        label = " > ".join(h.rstrip(":").rstrip() for h in below)
        if "\n" in body:
            out.append(f"{label}:\n{body}")
        else:
            out.append(f"{label}: {body.removeprefix(_BULLET)}")
    return "\n".join(out)


def common_parent(paths: Sequence[Path]) -> Path:
    """The longest heading path every one of `paths` starts with."""
    if not paths:
        return ()
    first = paths[0]
    n = 0
    while n < len(first) and all(len(p) > n and p[n] == first[n] for p in paths):
        n += 1
    return first[:n]


def _whole_tiny_section(
    w: Window, sentences: Sequence[Sequence[Sentence]], under: int
) -> int | None:
    """The section index when `w` is one whole section of fewer than `under` words."""
    if len(w.parts) != 1 or w.merged or w.inline or w.toc or w.words >= under:
        return None
    sec, start, end = w.parts[0]
    return sec if start == 0 and end == len(sentences[sec]) else None


def _family(first: Path, second: Path) -> Path | None:
    """The parent shared by a run's first two sections: `first` itself when `second` is
    its child (the parent's own body leads), their common parent when they are siblings."""
    if second[:-1] == first and second:
        return first
    if first and second and first[:-1] == second[:-1]:
        return first[:-1]
    return None


def _label_words(path: Path) -> int:
    return count_words(path[-1]) if path else 0


def _flush(run: list[Window], parent: Path | None, paths: Sequence[Path]) -> list[Window]:
    """The run as one window (two or more members with a parent), else as it was."""
    if len(run) < 2 or parent is None:
        return list(run)
    sections = tuple(w.parts[0][0] for w in run)
    inline = tuple(sec for sec in sections if paths[sec] != parent)
    return [
        Window(
            parts=tuple(w.parts[0] for w in run),
            words=sum(w.words for w in run) + sum(_label_words(paths[s]) for s in inline),
            bullet=any(w.bullet for w in run),
            inline=inline,
        )
    ]
