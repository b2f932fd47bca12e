"""Red suits in the terminal: hearts and diamonds (the cards ``7♥``, ``10♦`` and the suit symbols
alone, ``declare ♥``) in red where the output is a terminal that shows colour.

Whether it does is :mod:`rich`'s decision (``rich.console.Console``): a terminal, not ``TERM=dumb``,
not ``NO_COLOR`` (https://no-color.org), or ``FORCE_COLOR``.  Elsewhere (a pipe, a file, a test's
``StringIO``) the text is written as it is.

>>> import io
>>> out = io.StringIO()
>>> painted(out) is out  # not a terminal: plain text
True
>>> paint("play 7♥, declare ♦; 10♠", "\\x1b[31m", "\\x1b[0m")
'play \\x1b[31m7♥\\x1b[0m, declare \\x1b[31m♦\\x1b[0m; 10♠'
"""

from __future__ import annotations

import re
from typing import TextIO, cast

from rich.color import ColorSystem
from rich.console import Console
from rich.style import Style

__all__ = ["RED_SUITS", "paint", "painted"]

RED_SUITS = re.compile(r"(?:10|[2-9JQKA])?[♥♦]")
"""A red card as the terminal shows it (``7♥``, ``10♦``), or a red suit symbol alone."""


def paint(text: str, start: str, end: str) -> str:
    """``text`` with every red card or suit (:data:`RED_SUITS`) between ``start`` and ``end``."""
    return RED_SUITS.sub(lambda m: f"{start}{m.group(0)}{end}", text)


class Painted:
    """A text stream that writes to ``out`` with the red suits in red (the ANSI codes of ``red`` for
    the terminal's colour system)."""

    def __init__(self, out: TextIO, start: str, end: str) -> None:
        self.out, self.start, self.end = out, start, end

    def write(self, text: str) -> int:
        """Write ``text`` painted; returns the length of ``text``."""
        self.out.write(paint(text, self.start, self.end))
        return len(text)

    def flush(self) -> None:
        """Flush ``out``."""
        self.out.flush()

    def isatty(self) -> bool:
        """Whether ``out`` is a terminal."""
        return self.out.isatty()


def painted(out: TextIO) -> TextIO:
    """``out`` itself when it shows no colour (rich's decision, see the module), else a stream that
    paints the red suits on it."""
    console = Console(file=out)
    if console.color_system is None or console.no_color:
        return out
    start, _, end = Style(color="red").render("\0", color_system=ColorSystem.STANDARD).partition("\0")
    return cast(TextIO, Painted(out, start, end))  # write, flush and isatty are all a writer here needs
