"""An option refused for its value names the option and shows the value as the caller wrote it:
JSON text (``null``, ``"x"``, ``true``), never a Python repr (each game's section 7)."""

from __future__ import annotations

from typing import Any

import pytest

from trapoula.domain.errors import InvalidInput
from trapoula.domain.options import shown
from trapoula.domain.registry import GAMES

BUILT_IN = ("agonia", "crazy_eights", "giminaiciai", "mau_mau", "romis", "vida")


@pytest.mark.parametrize("game", BUILT_IN)
@pytest.mark.parametrize(("value", "text"), [(None, "null"), ("x", '"x"'), (True, "true"), ([1], "[1]")])
def test_the_target_option_shows_the_value_as_json(game: str, value: Any, text: str) -> None:
    spec = GAMES[game]
    key = spec.target_option
    assert key is not None
    with pytest.raises(InvalidInput) as refused:
        spec.parse_options({key: value})
    assert refused.value.reason == "bad_option"
    assert f"{game} option {key}={text}: expected" in refused.value.message
    assert "None" not in refused.value.message and "'" not in refused.value.message


@pytest.mark.parametrize(
    ("game", "options", "text"),
    [
        ("agonia", {"announce_cards": "yes"}, 'announce_cards="yes": expected true or false'),
        ("agonia", {"announce_penalty": None}, "announce_penalty=null: expected one of"),
        ("crazy_eights", {"scoring": 3}, "scoring=3: expected single or points (R7.1)"),
        ("crazy_eights", {"jacks_skip": None}, "jacks_skip=null: expected true or false (R7.3)"),
        ("mau_mau", {"computer_seats": None}, "computer_seats=null: expected a mapping seat -> skill (R7.2)"),
        ("romis", {"resubmit": "no"}, 'resubmit="no": expected true or false (R12.4)'),
        ("vida", {"open_vida": None}, "vida option open_vida=null: expected"),
    ],
)
def test_other_options_show_the_value_as_json(game: str, options: dict[str, Any], text: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        GAMES[game].parse_options(options)
    assert text in refused.value.message


def test_shown_clips_long_values_and_names_what_is_not_plain_data() -> None:
    assert shown("x" * 100) == '"' + "x" * 30 + "\u2026"
    assert shown(object()) == "object"
    assert shown({"a": None}) == '{"a": null}'
