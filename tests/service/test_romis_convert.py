"""Romis's sealed commands on the wire (docs/rules/romis.md R13.1-R13.3): the ``Reveal``, ``UseAuxiliary``
and ``Cannot`` messages, read by the service (convert.py) and written by the client (table.py)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from trapoula.api.v1 import table_pb2 as pb
from trapoula.clients.errors import InvalidArgument
from trapoula.clients.table import command_message
from trapoula.domain.errors import InvalidInput
from trapoula.service import convert


def test_r13_new_command_fields_take_numbers_after_lay_down() -> None:
    """R13.1-R13.3 are added as oneof fields 14-16; the fields before them keep their numbers."""
    fields = pb.Command.DESCRIPTOR.fields_by_name
    assert {name: fields[name].number for name in ("lay_down", "reveal", "use_auxiliary", "cannot")} == {
        "lay_down": 13,
        "reveal": 14,
        "use_auxiliary": 15,
        "cannot": 16,
    }
    assert [f.number for f in pb.Reveal.DESCRIPTOR.fields] == [1, 2]
    assert [f.name for f in pb.Reveal.DESCRIPTOR.fields] == ["cards", "companions"]


def test_r13_1_a_reveal_of_two_cards_reads_without_companions() -> None:
    """R13.1, R4.2: a round-1 reveal names two cards and no companion key."""
    command = pb.Command(reveal=pb.Reveal(cards=["5H", "7D"]))
    assert convert.command_to_dict(command) == {"kind": "reveal", "cards": ["5H", "7D"]}


def test_r13_1_a_new_combination_carries_its_companions_in_order() -> None:
    """R13.1, R8.2: one revealed card and its face-down companions, as the request orders them."""
    command = pb.Command(reveal=pb.Reveal(cards=["9S"], companions=["9D", "8S"]))
    assert convert.command_to_dict(command) == {"kind": "reveal", "cards": ["9S"], "companions": ["9D", "8S"]}


def test_r13_1_an_empty_reveal_reaches_the_rules() -> None:
    """R13.1: a reveal with no card is well formed on the wire; the rules answer wrong_count."""
    assert convert.command_to_dict(pb.Command(reveal=pb.Reveal())) == {"kind": "reveal", "cards": []}


def test_r13_2_and_r13_3_read_as_their_kinds() -> None:
    """R13.2 ``use_auxiliary`` and R13.3 ``cannot`` carry no field."""
    assert convert.command_to_dict(pb.Command(use_auxiliary=pb.UseAuxiliary())) == {"kind": "use_auxiliary"}
    assert convert.command_to_dict(pb.Command(cannot=pb.Cannot())) == {"kind": "cannot"}


@pytest.mark.parametrize(
    ("cards", "companions"),
    [(convert.MAX_CARD_CODES + 1, 0), (convert.MAX_CARD_CODES, 1), (1, convert.MAX_CARD_CODES)],
)
def test_r13_1_a_reveal_of_more_than_the_limit_in_all_is_refused(cards: int, companions: int) -> None:
    """R13.1: like ``give`` and ``lay_down``, at most MAX_CARD_CODES codes (cards and companions
    counted together) are read; one more is INVALID_ARGUMENT ``bad_command``."""
    command = pb.Command(reveal=pb.Reveal(cards=["2C"] * cards, companions=["3C"] * companions))
    with pytest.raises(InvalidInput) as exc:
        convert.command_to_dict(command)
    assert exc.value.reason == "bad_command"
    assert f"{cards + companions} card codes in reveal" in str(exc.value)


def test_r13_1_a_reveal_at_the_limit_is_read() -> None:
    """R13.1: exactly MAX_CARD_CODES codes in all pass the count check."""
    command = pb.Command(reveal=pb.Reveal(cards=["2C"] * (convert.MAX_CARD_CODES - 1), companions=["3C"]))
    out = convert.command_to_dict(command)
    assert len(out["cards"]) == convert.MAX_CARD_CODES - 1 and out["companions"] == ["3C"]


def test_a_command_without_a_kind_names_the_romis_kinds() -> None:
    """The refusal of an empty command lists every kind, R13.1-R13.3's among them."""
    with pytest.raises(InvalidInput) as exc:
        convert.command_to_dict(pb.Command())
    assert exc.value.reason == "bad_command"
    assert "reveal, use_auxiliary, cannot" in str(exc.value)


@pytest.mark.parametrize(
    ("command", "read_back"),
    [
        ({"kind": "reveal", "cards": ["5H", "7D"]}, {"kind": "reveal", "cards": ["5H", "7D"]}),
        ({"kind": "reveal", "cards": "5H 7D", "seat": 2}, {"kind": "reveal", "cards": ["5H", "7D"]}),
        (
            {"kind": "reveal", "cards": ["9S"], "companions": ("8S", "9D")},
            {"kind": "reveal", "cards": ["9S"], "companions": ["8S", "9D"]},
        ),
        ({"kind": "reveal", "cards": ["9S"], "companions": None}, {"kind": "reveal", "cards": ["9S"]}),
        ({"kind": "reveal", "cards": ["9S"], "companions": []}, {"kind": "reveal", "cards": ["9S"]}),
        ({"kind": "use_auxiliary"}, {"kind": "use_auxiliary"}),
        ({"kind": "cannot", "seat": 0}, {"kind": "cannot"}),
    ],
)
def test_r13_client_commands_reach_the_service_unchanged(command: dict[str, Any], read_back: dict[str, Any]) -> None:
    """R13.1-R13.3: what the client writes (``command_message``) the service reads back as the
    rules' command (the seat comes from the token, so a ``seat`` key is dropped); a card list may be
    one string of codes."""
    message = command_message(command)
    assert pb.Command.FromString(message.SerializeToString()) == message
    assert convert.command_to_dict(message) == read_back


@pytest.mark.parametrize(
    ("command", "complaint"),
    [
        ({"kind": "reveal"}, "reveal: cards None is not a list of card codes"),
        ({"kind": "reveal", "cards": ["5H", 7]}, "reveal: cards ['5H', 7] is not a list of card codes"),
        ({"kind": "reveal", "cards": ["9S"], "companions": 8}, "reveal: companions 8 is not a list of card codes"),
    ],
)
def test_r13_1_the_client_refuses_a_reveal_that_names_no_card_codes(command: dict[str, Any], complaint: str) -> None:
    """R13.1: ``cards`` (and ``companions`` when given) must be card codes; the client says so before
    any call."""
    with pytest.raises(InvalidArgument) as exc:
        command_message(command)
    assert complaint in str(exc.value)


def test_an_unknown_kind_travels_as_json_for_the_server_to_judge() -> None:
    """A kind that is none of the typed commands (a misspelt ``reveals``, or a plugged-in game's
    command) is sent as JSON text, without its seat: the client cannot know every game's commands;
    the server refuses it with the game's own message (R13.1-R13.3 for romis)."""
    message = command_message({"kind": "reveals", "seat": 1, "cards": ["9S"]})
    assert message.WhichOneof("kind") == "json"
    assert json.loads(message.json) == {"kind": "reveals", "cards": ["9S"]}


def test_r3_7_an_explicit_deal_of_hands_and_stock_carries_no_starter() -> None:
    """R3.7: a romis deal is each seat's 5 cards and the stock (auxiliary cards first); read from
    the wire it has exactly those two keys, as the game's explicit deal asks, with no empty starter.
    A shedding deal with its starter (S5.3) still carries starter and stock."""
    hands = [pb.CardList(cards=["2C", "3C", "4C", "5C", "6C"]), pb.CardList(cards=["2D", "3D", "4D", "5D", "6D"])]
    deal = pb.ExplicitDeal(hands=hands, stock=["7C", "7D", "8C", "8D"])
    assert convert.command_to_dict(pb.Command(next_hand=pb.NextHand(deal=deal))) == {
        "kind": "next_hand",
        "deal": {"hands": [["2C", "3C", "4C", "5C", "6C"], ["2D", "3D", "4D", "5D", "6D"]],
                 "stock": ["7C", "7D", "8C", "8D"]},
    }  # fmt: skip
    assert convert.start_deal(pb.StartMatchRequest(deal=pb.ExplicitDeal(hands=hands[:1], starter="4C"))) == {
        "hands": [["2C", "3C", "4C", "5C", "6C"]],
        "starter": "4C",
        "stock": [],
    }
