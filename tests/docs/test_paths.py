"""No tracked text file cites a file of the repository that is not there.

Three kinds of citation are checked, each where it is unambiguous:

* a Markdown link ``[text](target)`` with a relative target, in a ``.md`` file: the target,
  without its ``#anchor``, must exist relative to the file;
* a backticked path in a ``.md`` file (``docs/record.md``, ``seeds/000_x.txt``): a token of one
  or more ``/``-separated parts that ends with a file extension must exist relative to the
  repository's root or to the file;
* a path from the repository's root in any tracked text file (``docs/shuffle.md`` in a docstring,
  ``tests/golden`` in the Makefile): a token whose first part is a top-level folder of the
  repository must exist.

A path git ignores is a generated or local one (``protos/.../table_pb2.py``, ``deploy/.env``,
``clients/ts/node_modules``) and is not reported; nor is a placeholder (``<id>``, ``*``, ``...``,
an all-capitals part such as ``DIR/GAME.json``) or anything with a scheme (``sqlite:///x``).
"""

from __future__ import annotations

import posixpath
import re
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SKIPPED = (".gitignore",)
"""Files whose paths are by nature not tracked."""
THIS = "tests/docs/test_paths.py"
"""This file: its examples cite missing paths on purpose."""
DATA_SUFFIXES = (".json", ".jsonl", ".png", ".svg", ".ico", ".lock")
"""Data, not prose: not scanned."""
EXTENSIONS = ("md", "py", "pyi", "txt", "proto", "toml", "yaml", "yml", "json", "jsonl", "ts", "sh", "cfg", "ini")
"""The endings that make a backticked token a file path."""
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
TICKED = re.compile(r"`([^`\s]+/[^`\s]+)`")
TICKED_FILE = re.compile(r"[\w.-]+(/[\w.-]+)*\.(" + "|".join(EXTENSIONS) + ")")
PLACEHOLDER = re.compile(r"[<>*{}$\[\]]|\.\.\.|(^|/)[A-Z_]+(\.\w+)?(/|$)")


@dataclass(frozen=True)
class Citation:
    """A path cited at a line of a file, and how it was found (``link``, ``ticked``, ``rooted``)."""

    file: str
    line: int
    kind: str
    path: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.kind} {self.path}"


def tracked_files(root: Path) -> list[str]:
    """The files git tracks under ``root``, relative to it."""
    out = subprocess.run(["git", "ls-files", "-z"], cwd=root, capture_output=True, check=True).stdout
    return [f for f in out.decode().split("\0") if f]


def citations(name: str, text: str, top: Iterable[str]) -> list[Citation]:
    """The paths that file ``name`` (relative to the root) cites in ``text``; ``top`` holds the
    repository's top-level folders."""
    folders = "|".join(re.escape(t) for t in sorted(top))
    rooted = re.compile(r"(?<![\w./@-])((?:" + folders + r")/[\w./-]*[\w/])")
    markdown = name.endswith(".md")
    found: list[Citation] = []
    for number, line in enumerate(text.splitlines(), start=1):
        cited: list[tuple[str, str]] = []
        if markdown:
            cited += [("link", m.group(1)) for m in LINK.finditer(line)]
            cited += [("ticked", m.group(1)) for m in TICKED.finditer(line) if TICKED_FILE.fullmatch(m.group(1))]
        cited += [("rooted", m.group(1)) for m in rooted.finditer(line)]
        for kind, path in cited:
            if ":" in path or path.startswith(("#", "/")) or PLACEHOLDER.search(path):
                continue
            found.append(Citation(name, number, kind, path.split("#")[0].rstrip("/") or "."))
    return found


def resolves(citation: Citation, known: set[str]) -> bool:
    """True when the cited path is a tracked file or folder (``known``): relative to the citing
    file for a link, relative to the root (or, backticked, to the file) for the others."""
    here = posixpath.dirname(citation.file)
    if citation.kind == "link":
        candidates = [posixpath.join(here, citation.path)]
    elif citation.kind == "ticked":
        candidates = [citation.path, posixpath.join(here, citation.path)]
    else:
        candidates = [citation.path]
    return any(posixpath.normpath(c) in known for c in candidates)


def ignored(root: Path, paths: Iterable[str]) -> set[str]:
    """The paths (relative to ``root``) that git ignores, as files or as folders (``node_modules/``)."""
    paths = sorted(set(paths))
    if not paths:
        return set()
    listed = "\0".join(p for path in paths for p in (path, path + "/"))
    done = subprocess.run(
        ["git", "check-ignore", "-z", "--no-index", "--stdin"], cwd=root, input=listed.encode(), capture_output=True
    )
    return {p.rstrip("/") for p in done.stdout.decode().split("\0") if p}


def broken(root: Path) -> list[Citation]:
    """Every citation in the tracked text files of ``root`` that names no tracked file or folder
    and no path git ignores."""
    files = tracked_files(root)
    known = set(files)
    for file in files:
        parts = file.split("/")
        known.update("/".join(parts[:i]) for i in range(1, len(parts)))
    known.add(".")
    top = {f.split("/")[0] for f in files if "/" in f}
    unresolved: list[Citation] = []
    for file in files:
        if file.endswith(DATA_SUFFIXES) or posixpath.basename(file) in SKIPPED or file == THIS:
            continue
        try:
            text = (root / file).read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError):
            continue
        unresolved += [c for c in citations(file, text, top) if not resolves(c, known)]

    def where(c: Citation) -> str:  # the path the citation names, from the root
        return c.path if c.kind != "link" else posixpath.normpath(posixpath.join(posixpath.dirname(c.file), c.path))

    generated = ignored(root, map(where, unresolved))
    return [c for c in unresolved if where(c) not in generated]


@pytest.fixture(scope="module")
def checkout() -> Path:
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: the tracked files are unknown")
    return ROOT


def test_no_tracked_file_cites_a_missing_path(checkout: Path) -> None:
    missing = broken(checkout)
    assert not missing, "paths cited but not in the repository:\n" + "\n".join(map(str, missing))


TOP = ("docs", "service", "tests")


@pytest.mark.parametrize(
    ("name", "line", "expected"),
    [
        (
            "docs/rules/agonia.md",
            "Seed original: `seeds/000_32099d2ea1e8f30c.txt` (Greek",
            [("ticked", "seeds/000_32099d2ea1e8f30c.txt")],
        ),
        (
            "docs/index.md",
            "see [the shuffle](shuffle.md#2a) and [x](https://example.com/a.md)",
            [("link", "shuffle.md")],
        ),
        (
            "service/x.py",
            '"""(docs/shuffle.md 2a, tests/golden)."""',
            [("rooted", "docs/shuffle.md"), ("rooted", "tests/golden")],
        ),
        ("README.md", "`sqlite:///trapoula.sqlite3`, `DIR/GAME.json`, `<id>/x.md`, `LISTEN/NOTIFY`", []),
        ("README.md", "`docs/x.md`", [("ticked", "docs/x.md"), ("rooted", "docs/x.md")]),
        ("service/x.py", "trapoula.service/docs and clients/trapoula (not top-level here)", []),
    ],
)
def test_citations_are_found_where_they_are_unambiguous(name: str, line: str, expected: list[tuple[str, str]]) -> None:
    assert [(c.kind, c.path) for c in citations(name, line, TOP)] == expected


def test_a_missing_path_is_reported_and_a_present_one_is_not(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    (tmp_path / "docs" / "rules").mkdir(parents=True)
    (tmp_path / "docs" / "index.md").write_text("[rules](rules/agonia.md), [gone](gone.md#top)\n", encoding="utf-8")
    (tmp_path / "docs" / "rules" / "agonia.md").write_text(
        "Seed: `seeds/000_x.txt`; [up](../index.md)\n", encoding="utf-8"
    )
    (tmp_path / "tool.py").write_text(
        '"""See docs/index.md, docs/missing.md and docs/gen/out.md."""\n', encoding="utf-8"
    )
    (tmp_path / ".gitignore").write_text("docs/gen/\n", encoding="utf-8")
    subprocess.run(["git", "add", "-A"], cwd=tmp_path, check=True)
    assert sorted(map(str, broken(tmp_path))) == [
        "docs/index.md:1: link gone.md",
        "docs/rules/agonia.md:1: ticked seeds/000_x.txt",
        "tool.py:1: rooted docs/missing.md",
    ]


SHORT_RULES = re.compile(r"(?<![\w/.-])rules/[a-z_-]+\.md")
"""A rules file named from inside ``docs/`` (``rules/agonia.md``), outside a Markdown file of ``docs/``."""


def test_code_names_the_rules_files_from_the_repositorys_root() -> None:
    """Outside ``docs/`` (where ``rules/agonia.md`` is a correct relative path), a rules file is
    cited as ``docs/rules/agonia.md``: ``rules/agonia.md`` names no file from the repository's root."""
    found = []
    for name in tracked_files(ROOT):
        if name == THIS or not (name.endswith((".py", ".ts", ".toml", ".proto")) or name == "Makefile"):
            continue
        text = (ROOT / name).read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), start=1):
            found.extend(f"{name}:{number}: {m.group(0)}" for m in SHORT_RULES.finditer(line))
    assert found == []
