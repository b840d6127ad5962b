"""The layer contract: imports flow one way, from the CLI down to the base, never back.

Every import in the package (module level, inside functions and under TYPE_CHECKING
alike) is read from the source with `ast`. A module may import its own layer or a lower
one; modules of two peer groups of one layer (engines | qa) never import each other; and
the module graph has no cycle. docs/architecture.md draws the same layers.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "notechunk"

# lowest first; a layer is one group, or peer groups that must not import each other
LAYERS: tuple[tuple[tuple[str, ...], ...], ...] = (
    (("_version", "errors", "chunk", "textio", "terms", "tokens", "bm25", "_proc", "data"),),
    (("config",),),
    (("io",),),
    (("discover", "segment", "markdown", "sheets", "enrich"),),
    (("finish",),),
    (("perfile",),),
    (("corpus",),),
    (("engines",), ("qa",)),
    (("job",),),
    (("search",), ("api",)),
    (("evaluate",), ("integrations",)),
    (("cli",),),
    (("", "__main__"),),  # the package itself: the public API's lazy front door
)


def module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE).with_suffix("")
    parts = [p for p in rel.parts if p != "__init__"]
    return ".".join(parts)


def package_modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports_of(path: Path, name: str, modules: dict[str, Path]) -> set[str]:
    """The package modules `path` imports (a `from X import y` names `X.y` when that is a
    module, else `X`)."""
    is_package = path.name == "__init__.py"
    here = name.split(".") if is_package else name.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - node.level + 1]
                mod = ".".join(["notechunk", *base, *([node.module] if node.module else [])])
            else:
                mod = node.module or ""
            named = [f"{mod}.{a.name}" for a in node.names]
            # the module itself, unless every name is a submodule (`from x import y`)
            targets = named + ([mod] if not all(_short(n) in modules for n in named) else [])
        for t in targets:
            if t != "notechunk" and not t.startswith("notechunk."):
                continue
            short = _short(t)
            if short in modules and short != name:
                found.add(short)
    return found


def _short(dotted: str) -> str:
    return dotted.removeprefix("notechunk").removeprefix(".")


def layer_of(name: str) -> tuple[int, int]:
    top = name.split(".")[0]
    for i, groups in enumerate(LAYERS):
        for j, group in enumerate(groups):
            if top in group:
                return i, j
    raise AssertionError(f"{name}: no layer; add its package to LAYERS (and to the docs)")


def graph() -> dict[str, set[str]]:
    modules = package_modules()
    return {name: imports_of(path, name, modules) for name, path in modules.items()}


def test_every_module_has_a_layer() -> None:
    for name in package_modules():
        layer_of(name)


def test_imports_go_down_or_stay_level() -> None:
    wrong = []
    for name, deps in graph().items():
        mine = layer_of(name)
        for dep in sorted(deps):
            theirs = layer_of(dep)
            if theirs[0] > mine[0] or (theirs[0] == mine[0] and theirs[1] != mine[1]):
                wrong.append(f"{name} -> {dep}")
    assert not wrong, "imports against the layers:\n" + "\n".join(wrong)


def cycles(g: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = 0
    for root in sorted(g):
        if root in index:
            continue
        work = [(root, iter(sorted(g[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    comp = []
                    while True:
                        m = stack.pop()
                        on.discard(m)
                        comp.append(m)
                        if m == node:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
            elif child not in index:
                index[child] = low[child] = counter
                counter += 1
                stack.append(child)
                on.add(child)
                work.append((child, iter(sorted(g.get(child, ())))))
            elif child in on:
                low[node] = min(low[node], index[child])
    return out


def test_no_import_cycles() -> None:
    found = cycles(graph())
    assert not found, "import cycles: " + "; ".join(" <-> ".join(c) for c in found)


@pytest.mark.parametrize(
    ("g", "expected"),
    [
        ({"a": {"b"}, "b": {"a"}, "c": set()}, [["a", "b"]]),
        ({"a": {"b"}, "b": {"c"}, "c": set()}, []),
        ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, [["a", "b", "c"]]),
    ],
    ids=["two", "chain", "three"],
)
def test_the_cycle_finder_finds_cycles(g: dict[str, set[str]], expected: list[list[str]]) -> None:
    assert cycles(g) == expected


def test_a_wrong_way_import_is_caught(tmp_path: Path) -> None:
    """The checker itself: a reader that imports the CLI is reported."""
    (tmp_path / "markdown").mkdir()
    bad = tmp_path / "markdown" / "bad.py"
    bad.write_text("from notechunk.cli import main\n", encoding="utf-8")
    deps = imports_of(bad, "markdown.bad", {"markdown.bad": bad, "cli": bad})
    assert deps == {"cli"}
    assert layer_of("cli")[0] > layer_of("markdown.bad")[0]
