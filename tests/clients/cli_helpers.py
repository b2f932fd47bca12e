"""What the command-line tests of the games share (imported from this folder, which the folder's
conftest puts on ``sys.path``): a ``trapoula`` command run in this process, a demo's record, the
screens of a ``play`` session, a person at the terminal who reads the screen before answering, and a
record with one number changed."""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO, cast

from trapoula.clients.cli import main

CARD = r"(?:10|[2-9JQKA])[♣♦♥♠]"
"""A card as the terminal shows it (``10♠``, ``Q♥``)."""


def cli(argv: Sequence[str], inp: Any = None) -> tuple[int, str]:
    """``trapoula <argv>`` in this process: (exit status, output); ``inp`` the standard input."""
    out = io.StringIO()
    code = main(list(argv), out=out, inp=io.StringIO() if inp is None else inp)
    return code, out.getvalue()


def demo_record(address: str, folder: Path, argv: Sequence[str]) -> tuple[Path, str]:
    """``trapoula demo <argv>`` at ``address``, its record written in ``folder``: (record path, output)."""
    path = folder / "demo.jsonl"
    code, text = cli(["demo", *argv, "--address", address, "--record", str(path)])
    assert code == 0, text
    return path, text


def screens(text: str) -> list[str]:
    """The prompts of a ``play`` session: each view printed before ``Your move``."""
    return [chunk for chunk in text.split("\n\n") if "Your move [" in chunk]


def changed(path: Path, target: Path, name: str, field: str, delta: int) -> Path:
    """The record at ``path`` written to ``target`` with ``delta`` added to ``field`` of its first
    event ``name``, in place (the hash chain left as it was)."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    index = next(i for i, line in enumerate(lines) if f'"name":"{name}"' in line)
    value = json.loads(lines[index])["payload"][field]
    lines[index] = lines[index].replace(f'"{field}":{value}', f'"{field}":{value + delta}')
    target.write_text("".join(lines), encoding="utf-8")
    return target


class Person:
    """A person at the terminal who reads the screen before answering (``readline`` only), at most
    ``limit`` times; a subclass answers in :meth:`answer`."""

    def __init__(self, out: io.StringIO, limit: int = 3000) -> None:
        self.out, self.limit = out, limit
        self.lines = 0

    def readline(self) -> str:
        """The next answer, with its newline; "" (end of input) after ``limit`` answers."""
        self.lines += 1
        if self.lines > self.limit:
            return ""
        text = self.out.getvalue()
        return self.answer(text, text[text.rfind("\n\n") :]) + "\n"

    def answer(self, text: str, screen: str) -> str:
        """The answer to ``screen``, the last one of the whole output ``text``."""
        raise NotImplementedError

    def stdin(self) -> TextIO:
        """This person as the play loop's input (it reads nothing but ``readline``)."""
        return cast(TextIO, self)


def verified(path: Path, tampered: tuple[Path, str, int] | None = None) -> str:
    """``trapoula verify`` of the record at ``path``, which must pass: its output.  With ``tampered``
    ``(target, name, delta)``, the record with ``delta`` added to the ``points`` of its first event
    ``name`` (:func:`changed`, written to ``target``) must fail (exit 1) on the hash chain (REC5)."""
    code, text = cli(["verify", str(path)])
    assert code == 0, text
    if tampered is not None:
        target, name, delta = tampered
        code, broken = cli(["verify", str(changed(path, target, name, "points", delta))])
        assert code == 1
        assert name in broken and "rule REC5" in broken, broken
    return text


def game_block(address: str, where: str, key: str) -> list[str]:
    """The three lines ``trapoula games`` prints for ``key`` (``where``: ``local``, or the server's
    ListGames at ``address``): the title and players, the options, the bot levels."""
    code, text = cli(["games", *(["--local"] if where == "local" else ["--address", address])])
    assert code == 0, text
    return text[text.index(f"{key} ") :].splitlines()[:3]


def replayed(path: Path, *flags: str) -> str:
    """``trapoula replay`` of the record at ``path`` (piped, so it lists and ends), which must succeed."""
    code, text = cli(["replay", str(path), *flags])
    assert code == 0, text
    return text


def position_of(listing: str, marker: str) -> int:
    """The position of the first line of a replay's ``listing`` holding ``marker``."""
    line = next(line for line in listing.splitlines() if line.startswith("[") and marker in line)
    return int(line[1 : line.index("/")])
