"""The table of the service settings (:data:`SETTINGS`), made from the :class:`~trapoula.service.settings.Settings`
model, and what is made from it: the Markdown table of the docs (:func:`settings_table`) and the
parser of the flags of ``trapoula serve``, with its ``--help`` (:func:`build_parser`).

Each row names a :class:`~trapoula.service.settings.Settings` field, one way to give it (flag and/or
variable), its default as the docs show it, what it does, and the parser of its text
(:mod:`trapoula.service.settingvalues`), all read from the field's declaration
(:class:`~trapoula.service.settingfields.Option`).  The docstring of :mod:`trapoula.service.settings`
and the README show the same table, and a test keeps the three equal.
"""

from __future__ import annotations

from trapoula.service.settingfields import Setting, markdown_table, rows
from trapoula.service.settings import PROG, Settings, build_parser

__all__ = ["PROG", "SETTINGS", "Setting", "build_parser", "settings_table"]

SETTINGS: tuple[Setting, ...] = rows(Settings)
"""Every setting, in the order of the table and of ``--help`` (the secret has two rows: its file, then
its value)."""


def settings_table() -> str:
    """The Markdown table of :data:`SETTINGS` (the module docstring and the README show it)."""
    return markdown_table(Settings)


if __name__ == "__main__":
    print(settings_table(), end="")
