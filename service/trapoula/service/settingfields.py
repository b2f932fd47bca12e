"""The machinery of a typed settings model whose every field is also a command-line flag and an
environment variable (pydantic-settings): :class:`Option` (the flag, variable, help text and
parser of a field, declared beside it), :class:`FlagSettings` (the base model: parses text given
to a field, resolves flags over variables over defaults), :class:`TextSource` (the
pydantic-settings source reading flags and variables), :class:`SettingsFileSource` (the one
reading a TOML file of settings, by field name), :func:`rows` (the table of a model's settings),
:func:`markdown_table` and :func:`build_parser` (argparse, with ``--help``).

It knows no particular setting: :mod:`trapoula.service.settings` declares them.  A field is
declared once, as ``name: Annotated[type, Option(...)] = default``; its flag is ``--name`` (``_``
becoming ``-``) and its variable ``PREFIX_NAME`` unless the option names others.  Text (from a
flag, a variable, or given in code) is read by the option's ``parse``, which returns the value or
raises ``ValueError`` with a one-line message naming the value (never quoting a secret).
"""

from __future__ import annotations

import argparse
import re
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, NoReturn, TypeVar

from pydantic import ValidationError, ValidationInfo, field_validator
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from trapoula.service.settingvalues import read_bounded

T = TypeVar("T")
M = TypeVar("M", bound="FlagSettings")


@dataclass(frozen=True, slots=True)
class Option:
    """How a field of a :class:`FlagSettings` model is given as text: put it in the field's
    ``Annotated[...]``.

    A field may carry several options (the secret: a file by flag or variable, or the value by a
    variable only); the last is the field's own, the one that reads text given in code.  Flags and
    variables are derived from the field's name unless given here.
    """

    metavar: str
    """The flag's value in ``--help`` (``HOST:PORT``, ``SECONDS``)."""
    meaning: str
    """What it does, for the docs' table (Markdown: backticks and links) and ``--help`` (plain)."""
    parse: Callable[[str], Any]
    """Text to value; raises ``ValueError`` with a one-line message naming the value."""
    flag: str | None = None
    """``--flag``; None: ``--field-name``; ``""``: no flag (a variable only)."""
    env: str | None = None
    """The environment variable; None: the model's prefix and the field's name in capitals."""
    shown_default: str | None = None
    """The default as the table shows it (Markdown); None: worked out from the field's default."""


@dataclass(frozen=True, slots=True)
class Setting:
    """One row of the settings table: a field of the model, one way to give it (flag and/or
    variable), its default as shown and what it does."""

    field: str
    """The model's field it sets (``secret`` for both secret rows)."""
    flag: str
    """``--flag``; empty when the setting is a variable only."""
    env: str
    """The environment variable."""
    metavar: str
    """The flag's value in ``--help``."""
    default: str
    """The default, as the table shows it (Markdown)."""
    meaning: str
    """What it does (Markdown: backticks and links)."""
    parse: Callable[[str], Any]
    """Text to value; raises ``ValueError`` naming the value."""


def _shown(default: Any) -> str:
    """A field's default as the table shows it: ``none``, ``on``/``off``, else the value in backticks."""
    if default is None or default is PydanticUndefined or default == ():
        return "none"
    if isinstance(default, bool):
        return "`on`" if default else "`off`"
    if isinstance(default, float):
        return f"`{default:g}`"
    return f"`{default}`"


def _options(info: FieldInfo) -> list[Option]:
    return [meta for meta in info.metadata if isinstance(meta, Option)]


def rows(model: type[FlagSettings]) -> tuple[Setting, ...]:
    """Every way to give each field of ``model`` that carries an :class:`Option`, in the order of
    the fields (then of their options): the rows of the docs' table and the flags of ``--help``."""
    prefix = model.model_config.get("env_prefix", "")
    found: list[Setting] = []
    for name, info in model.model_fields.items():
        for option in _options(info):
            found.append(
                Setting(
                    field=name,
                    flag=("--" + name.replace("_", "-")) if option.flag is None else option.flag,
                    env=option.env or f"{prefix}{name.upper()}",
                    metavar=option.metavar,
                    default=option.shown_default if option.shown_default is not None else _shown(info.default),
                    meaning=option.meaning,
                    parse=option.parse,
                )
            )
    return tuple(found)


def markdown_table(model: type[FlagSettings]) -> str:
    """The Markdown table of ``model``'s settings: ``| flag | environment | default | meaning |``,
    one line per :class:`Setting`, ending with a newline."""
    lines = ["| flag | environment | default | meaning |", "|---|---|---|---|"]
    for s in rows(model):
        flag = f"| `{s.flag}` |" if s.flag else "| |"
        lines.append(f"{flag} `{s.env}` | {s.default} | {s.meaning} |")
    return "\n".join(lines) + "\n"


def plain(text: str) -> str:
    """``text`` without Markdown: no backticks, ``[name](target)`` as ``name``.

    >>> plain("see [docs/operations.md](docs/operations.md), `on`")
    'see docs/operations.md, on'
    """
    return re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text).replace("`", "")


class _Parser(argparse.ArgumentParser):
    """argparse whose usage errors are one line: ``PROG: argument --x: why (see PROG --help)``."""

    def error(self, message: str) -> NoReturn:
        """Print one line and exit with status 2."""
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def _argument(parse: Callable[[str], T]) -> Callable[[str], T]:
    """``parse`` as an argparse type: its ``ValueError`` becomes the flag's usage error."""

    def convert(text: str) -> T:
        try:
            return parse(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    return convert


def build_parser(model: type[FlagSettings], prog: str, description: str, epilog: str) -> argparse.ArgumentParser:
    """The argparse parser of ``model``'s flags, each help naming its variable and default
    (``description`` and ``epilog`` are filled to 78 columns by the caller).

    A flag's text is parsed by its option (a bad one: one line naming the flag on standard error,
    exit status 2); a flag not given is absent from the parsed namespace (``argparse.SUPPRESS``),
    so ``vars(args)`` maps the given ones' fields to their values.
    """
    parser = _Parser(
        prog=prog, description=description, epilog=epilog, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    for s in rows(model):
        if s.flag:
            parser.add_argument(
                s.flag,
                dest=s.field,
                metavar=s.metavar,
                default=argparse.SUPPRESS,
                type=_argument(s.parse),
                help=f"{plain(s.meaning)} (env {s.env}; default {plain(s.default)})",
            )
    return parser


class TextSource(PydanticBaseSettingsSource):
    """A pydantic-settings source: the values of the flags ``given`` (field -> value already
    parsed by argparse), else of the variables of ``env`` (text, parsed here), for a
    :class:`FlagSettings` model.

    A blank variable counts as unset; a field given by two variables at once (the secret and its
    file) is refused.  Calling it returns the found values (field -> value).

    Raises (on call):
        ValueError: a bad variable, the message starting with its name (``TRAPOULA_X: ...``), or
            two variables of one field set (``set A or B, not both``).
    """

    def __init__(self, settings_cls: type[FlagSettings], env: Mapping[str, str], given: Mapping[str, Any]) -> None:
        super().__init__(settings_cls)
        self._rows = rows(settings_cls)
        self._env = env
        self._given = given

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        """``(value, where it came from, False)``; ``(None, "", False)`` when neither a flag nor a variable gives it.

        Raises:
            ValueError: see the class.
        """
        if field_name in self._given:
            return self._given[field_name], "flag", False
        mine = [s for s in self._rows if s.field == field_name]
        set_ = [s for s in mine if self._env.get(s.env, "").strip()]
        if len(set_) > 1:
            raise ValueError(f"set {' or '.join(sorted(s.env for s in set_))}, not both")
        if not set_:
            return None, "", False
        [s] = set_
        try:
            return s.parse(self._env[s.env]), s.env, False
        except ValueError as exc:
            raise ValueError(f"{s.env}: {exc}") from None

    def __call__(self) -> dict[str, Any]:
        """The found values, field -> value, in the order of the fields.

        Raises:
            ValueError: see the class.
        """
        found: dict[str, Any] = {}
        for name, info in self.settings_cls.model_fields.items():
            value, where, _ = self.get_field_value(info, name)
            if where:
                found[name] = value
        return found


MAX_SETTINGS_FILE_BYTES = 1024 * 1024
"""The largest settings file read."""


def _as_text(value: Any) -> str | None:
    """A TOML value as the text its flag would take: a string as it is, a boolean ``on``/``off``, a
    number in decimal, a list of strings joined by commas; None for anything else (a table, a date)."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return ",".join(value)
    return None


class SettingsFileSource(PydanticBaseSettingsSource):
    """A pydantic-settings source: the settings of a TOML file, one ``name = value`` per field of a
    :class:`FlagSettings` model (``cache_size = 5000``, ``projection = "off"``, ``cors_origins =
    ["https://a.example"]``), each value read by the field's own option as its flag's text would be.

    ``refused`` names the fields a file may not set (the secret: a file of settings is no place for
    it; the settings file itself).  Calling it returns the file's values (field -> value).

    Raises (on call):
        ValueError: the file cannot be read, is larger than 1 MiB or is not TOML; a key that is
            not a field or is refused; a bad value.  The message names the file and the key,
            never quoting a refused key's value.
    """

    def __init__(self, settings_cls: type[FlagSettings], path: str, refused: frozenset[str] = frozenset()) -> None:
        super().__init__(settings_cls)
        self.path = path
        self.refused = refused
        self._values: dict[str, Any] | None = None

    def _load(self) -> dict[str, Any]:
        where = f"settings file {self.path[:200]!r}"
        data = read_bounded(self.path, MAX_SETTINGS_FILE_BYTES, where)
        try:
            table = tomllib.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise ValueError(f"{where} is not TOML: {exc}") from None
        fields = self.settings_cls.model_fields
        values: dict[str, Any] = {}
        for key, raw in table.items():
            if key in self.refused:
                raise ValueError(f"{where}: {key} may not be set in a settings file")
            info = fields.get(key)
            options = _options(info) if info is not None else []
            if not options:
                known = ", ".join(name for name in fields if name not in self.refused)
                raise ValueError(f"{where}: {key[:64]!r} is not a setting (the settings: {known})")
            text = _as_text(raw)
            if text is None:
                raise ValueError(f"{where}: {key}: a string, a number, true or false, or a list of strings")
            try:
                values[key] = options[-1].parse(text)
            except ValueError as exc:
                raise ValueError(f"{where}: {key}: {exc}") from None
        return values

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        """``(value, "file", False)`` when the file sets the field, else ``(None, "", False)``.

        Raises:
            ValueError: see the class.
        """
        if self._values is None:
            self._values = self._load()
        if field_name in self._values:
            return self._values[field_name], "file", False
        return None, "", False

    def __call__(self) -> dict[str, Any]:
        """The file's values, field -> value.

        Raises:
            ValueError: see the class.
        """
        if self._values is None:
            self._values = self._load()
        return dict(self._values)


class FlagSettings(BaseSettings):
    """A frozen settings model whose fields are flags and variables (see the module docstring).

    Built directly (``Model(field=value)``), it takes only what it is given (no variable is read;
    text is parsed by the field's own option); :meth:`resolve` reads flags, then variables, then
    the settings file when the model has one (:attr:`settings_file_field`), then defaults.
    """

    model_config: ClassVar[SettingsConfigDict] = SettingsConfigDict(frozen=True, extra="forbid")
    settings_file_field: ClassVar[str | None] = None
    """The field naming a TOML file of further settings (:class:`SettingsFileSource`); None: none."""
    not_in_settings_file: ClassVar[frozenset[str]] = frozenset()
    """Fields a settings file may not set (besides :attr:`settings_file_field`)."""

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """Only the values given to the constructor: flags and variables are read by :meth:`resolve`."""
        return (init_settings,)

    @field_validator("*", mode="before")
    @classmethod
    def _parse_text(cls, value: Any, info: ValidationInfo) -> Any:
        """Text given to a field is read by the field's own (last) option."""
        if isinstance(value, str) and info.field_name is not None:
            options = _options(cls.model_fields[info.field_name])
            if options:
                return options[-1].parse(value)
        return value

    @classmethod
    def resolve(cls: type[M], given: Mapping[str, Any], env: Mapping[str, str]) -> M:
        """The model from the flags ``given`` (field -> value), then ``env``'s variables, then the
        settings file they name (if the model has one), then defaults.

        Raises:
            ValueError: a bad variable (the message starts with its name), two variables of one
                field set, a bad settings file (the message starts with the flag or variable that
                named it, then names the file and the key), or values the model refuses (the first
                error, naming the field's variable).
        """
        source = TextSource(cls, env, given)
        values = source()
        file_field = cls.settings_file_field
        if file_field is not None and values.get(file_field):
            refused = cls.not_in_settings_file | {file_field}
            try:
                from_file = SettingsFileSource(cls, str(values[file_field]), frozenset(refused))()
            except ValueError as exc:
                row = next(s for s in rows(cls) if s.field == file_field)
                raise ValueError(f"{row.flag if file_field in given else row.env}: {exc}") from None
            values = {**from_file, **values}
        try:
            return cls(**values)
        except ValidationError as exc:
            first = exc.errors()[0]
            name = str(first["loc"][0]) if first["loc"] else ""
            where = next((s.env for s in rows(cls) if s.field == name), name)
            error = first.get("ctx", {}).get("error")
            raise ValueError(f"{where}: {error if error is not None else first['msg']}") from None

    @classmethod
    def parse_flags(
        cls: type[M], parser: argparse.ArgumentParser, argv: Sequence[str] | None, env: Mapping[str, str]
    ) -> M:
        """Parse ``argv`` with ``parser`` (from :func:`build_parser`) and :meth:`resolve` over ``env``.

        Raises:
            SystemExit: ``--help`` (status 0) or a bad flag (status 2, one line naming it).
            ValueError: as :meth:`resolve`.
        """
        return cls.resolve(vars(parser.parse_args(argv)), env)
