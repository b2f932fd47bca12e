"""The documentation leads somewhere: docs/index.md links every page of docs/, the README links
the index and the tutorial, and the README's Python client snippet is the example bot's own code."""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def links(markdown: Path) -> set[str]:
    """The files a Markdown file links to (no anchors, no URLs), relative to the repository's root."""
    here = posixpath.dirname(markdown.relative_to(ROOT).as_posix())
    out = set()
    for target in LINK.findall(markdown.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        out.add(posixpath.normpath(posixpath.join(here, target.split("#")[0])))
    return out


def test_the_index_links_every_page_of_docs() -> None:
    pages = {p.relative_to(ROOT).as_posix() for p in DOCS.rglob("*.md")} - {"docs/index.md"}
    assert len(pages) > 20  # the rules, the decisions, the guides
    missing = sorted(pages - links(DOCS / "index.md"))
    assert not missing, f"docs/index.md does not link: {missing}"


def test_the_readme_leads_to_the_index_and_the_tutorial() -> None:
    assert {"docs/index.md", "docs/tutorial.md"} <= links(ROOT / "README.md")


def test_the_tutorial_says_that_join_adopts_the_seat_token() -> None:
    text = " ".join((DOCS / "tutorial.md").read_text(encoding="utf-8").split())
    assert "The client adopts the seat's token" in text


def _python_blocks(markdown: str) -> list[str]:
    return re.findall(r"^```python\n(.*?)^```$", markdown, flags=re.M | re.S)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def test_the_readme_client_snippet_is_the_bots_own_code() -> None:
    """Every line of the README's Python client snippet is a line of ``examples/bot.py``, in the
    same order and nested alike, so the README shows code that runs and is tested
    (``tests/examples``)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = [b for b in _python_blocks(readme) if "client.join(" in b]
    assert len(blocks) == 1, "the README has one Python client snippet"
    source = (ROOT / "examples" / "bot.py").read_text(encoding="utf-8").splitlines()
    position, offsets = 0, set()
    lines = [raw for raw in blocks[0].splitlines() if raw.strip()]
    for line in lines:
        found = next((i for i in range(position, len(source)) if source[i].strip() == line.strip()), None)
        assert found is not None, f"README line not found (in order) in examples/bot.py: {line!r}"
        if not line.startswith(("import ", "from ")):  # the code, one level deeper in the bot's function
            offsets.add(_indent(source[found]) - _indent(line))
        position = found + 1
    assert len(offsets) == 1, "the README snippet's lines are nested otherwise than in examples/bot.py"
    assert len(lines) > 15
    assert "client.join(table.table_id, name)  # the client adopts the seat's token" in blocks[0]
