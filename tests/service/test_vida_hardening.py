"""Vida tables under bad input (docs/rules/vida.md section 8): every malformed request is
``INVALID_ARGUMENT``, every refused move ``FAILED_PRECONDITION`` with the rules' reason code and
rule, a bad token ``PERMISSION_DENIED``, an unknown table ``NOT_FOUND``; and each leaves the table
as it was (its version and its stored events).  Then the regressions: requests whose size would
stall the server, bid points beyond the wire's 32 bits, and the thin client's and the terminal's
handling of sloppy input.

Deals (R3.2): :data:`DECK_A`, dealt by seat 3 (R3.3), and :data:`HANDS_B` with :data:`WIDOW_B`
under ``open_vida`` (R3.4).
"""

from __future__ import annotations

import collections
import functools
import io
import json
import threading
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import grpc
import pytest
from google.rpc import error_details_pb2  # type: ignore[import-untyped]
from grpc_status import rpc_status

from trapoula.api.v1 import table_pb2 as pb
from trapoula.api.v1 import table_pb2_grpc
from trapoula.clients.cli import _interactive
from trapoula.clients.errors import InvalidArgument
from trapoula.clients.play import _read_choice
from trapoula.clients.replay import Replay
from trapoula.clients.table import TableClient, command_message
from trapoula.domain.audit import audit_record
from trapoula.domain.errors import CommandRejected, InvalidInput
from trapoula.domain.games.vida.text import TEXT as VIDA_TEXT
from trapoula.service import convert
from trapoula.service.application import OWNER, SPECTATOR, Tables, seat_principal
from trapoula.service.servicer import LOOP_REQUEST_BYTES

Meta = tuple[tuple[str, str], ...]
Auth = Callable[[str], Meta]
Stub = table_pb2_grpc.TableServiceStub
Refusal = tuple[grpc.StatusCode, str, str]
pytestmark = pytest.mark.timeout(180)


def codes(text: str) -> list[str]:
    """Card codes written with spaces between them."""
    return text.split()


INVALID = grpc.StatusCode.INVALID_ARGUMENT
REFUSED = grpc.StatusCode.FAILED_PRECONDITION
DENIED = grpc.StatusCode.PERMISSION_DENIED

DECK_A = codes("AH TH AS 7H 7S 8S QH 9H KH JH 8H TC KS QS 9S TS AC KC JC 9C 7D 8D 9D JS TD JD 7C AD KD 8C QC QD")
"""Dealer 3 (R3.3): seat 0 AH TH AS KS QS 7D 8D 9D, seat 1 7H 7S 8S 9S TS JS TD JD, seat 2 QH 9H KH AC
KC 7C AD KD, seat 3 JH 8H TC JC 9C 8C QC QD.  Seat 0 speaks and leads first (R4.2, R4.9)."""
HANDS_A = (
    codes("AH TH AS KS QS 7D 8D 9D"),
    codes("7H 7S 8S 9S TS JS TD JD"),
    codes("QH 9H KH AC KC 7C AD KD"),
    codes("JH 8H TC JC 9C 8C QC QD"),
)
"""The hands :data:`DECK_A` deals (by seat)."""
PLAY_A = (
    (0, "AH"), (1, "7H"), (2, "9H"), (3, "JH"),
    (3, "QD"), (0, "7D"), (1, "TD"), (2, "AD"),
    (2, "KH"), (3, "8H"), (0, "TH"), (1, "7S"),
    (0, "AS"), (1, "8S"), (2, "QH"), (3, "8C"),
    (2, "AC"), (3, "9C"), (0, "8D"), (1, "9S"),
    (2, "KD"), (3, "JC"), (0, "9D"), (1, "JD"),
    (2, "KC"), (3, "TC"), (0, "KS"), (1, "JS"),
    (3, "QC"), (0, "QS"), (1, "TS"), (2, "7C"),
)  # fmt: skip
"""Eight legal tricks of :data:`DECK_A` with hearts trumps (R4.10-R4.14), each led by the last winner."""
HANDS_B = (
    codes("JS 9S AS TS 7H 8H 9H"),
    codes("7D 9D JD KD 7S 8S TH"),
    codes("AH KH QH JH AC TC KC"),
    codes("9C JC QC 8D TD QD AD"),
)
"""Seven cards each (R3.4)."""
WIDOW_B = ["KS", "QS", "7C", "8C"]
"""Face up (R3.4); with 90 spades seat 0 holds 11 cards: 7C 8C 7H 8H 9H 9S TS JS QS KS AS (R5.1)."""
PILOTTA = {"open_vida": True, "declaration_timing": "before_first_card"}
"""Open vida (R3.4, R5.1) and the Cypriot Pilotta timing (R5.8)."""


# --------------------------------------------------------------------------- helpers


def bid(points: int, suit: str) -> pb.Command:
    return pb.Command(bid=pb.Bid(points=points, suit=suit))


def pass_() -> pb.Command:
    message = pb.Command()
    getattr(message, "pass").SetInParent()  # "pass" is a Python keyword
    return message


def vida() -> pb.Command:
    return pb.Command(vida=pb.CallVida())


def give(*cards: str) -> pb.Command:
    return pb.Command(give=pb.GiveCards(cards=list(cards)))


def declare() -> pb.Command:
    return pb.Command(declare=pb.Declare())


def play(card: str, belote: bool = False) -> pb.Command:
    return pb.Command(play=pb.PlayCard(card=card, belote=belote))


def failure(call: Callable[[], Any]) -> Refusal:
    """``(code, ErrorInfo.reason, rule)`` of a call that must fail with a trapoula status."""
    with pytest.raises(grpc.RpcError) as raised:
        call()
    err = raised.value
    status = rpc_status.from_call(err)  # type: ignore[arg-type]
    assert status is not None and len(status.details) == 1, err
    info = error_details_pb2.ErrorInfo()
    assert status.details[0].Unpack(info)
    assert info.domain == "trapoula"
    return err.code(), info.reason, info.metadata.get("rule", "")


class Table:
    """A vida table over gRPC with ann, bob, cy and dee at seats 0-3, created for explicit deals
    (``manual_deal``: R3.2 as the rules owners answered, an ordinary table takes none)."""

    def __init__(
        self, stub: Stub, auth: Auth, tables: Tables, options: Mapping[str, Any], manual_deal: bool = True
    ) -> None:
        created = stub.CreateTable(
            pb.CreateTableRequest(game="vida", seats=4, options=dict(options), first_dealer=3, manual_deal=manual_deal)
        )
        self.stub, self.tables, self.table_id = stub, tables, created.table_id
        self.owner = auth(created.owner_token)
        self.seats = [
            auth(stub.JoinTable(pb.JoinTableRequest(table_id=self.table_id, name=n, seat=i)).seat_token)
            for i, n in enumerate(("ann", "bob", "cy", "dee"))
        ]
        self.sent = 0

    def start(self, deal: pb.ExplicitDeal, metadata: Meta | None = None) -> pb.ActResponse:
        request = pb.StartMatchRequest(table_id=self.table_id, command_id="start", deal=deal)
        return self.stub.StartMatch(request, metadata=self.owner if metadata is None else metadata)

    def send(self, metadata: Meta | None, command: pb.Command, command_id: str | None = None) -> pb.ActResponse:
        self.sent += 1
        request = pb.ActRequest(
            table_id=self.table_id, command_id=f"c{self.sent}" if command_id is None else command_id, command=command
        )
        return self.stub.Act(request, metadata=metadata)

    def act(self, seat: int, command: pb.Command, command_id: str | None = None) -> pb.ActResponse:
        return self.send(self.seats[seat], command, command_id)

    def state(self) -> tuple[int, int]:
        """``(version, stored events)``: what a refusal must leave unchanged (section 8)."""
        version = self.stub.GetView(pb.GetViewRequest(table_id=self.table_id)).view.version
        return version, len(self.tables.stored_events(self.table_id))

    def view(self, seat: int | None = None) -> dict[str, Any]:
        metadata = self.seats[seat] if seat is not None else None
        reply = self.stub.GetView(pb.GetViewRequest(table_id=self.table_id), metadata=metadata)
        view: dict[str, Any] = json.loads(reply.view.view_json)
        return view

    def refused(self, call: Callable[[], Any]) -> Refusal:
        """The failure of ``call``, which must change nothing."""
        before = self.state()
        result = failure(call)
        assert self.state() == before
        return result

    def run(self, steps: Sequence[tuple[int, pb.Command, tuple[grpc.StatusCode, str, str] | None]]) -> None:
        """Send each step for its seat: None must be accepted, else the failure (code, reason, rule)."""
        for seat, command, expected in steps:
            if expected is None:
                self.act(seat, command)
            else:
                assert self.refused(functools.partial(self.act, seat, command)) == expected, (seat, command)


def deck_a() -> pb.ExplicitDeal:
    return pb.ExplicitDeal(deck=DECK_A)


def hands(cards: Sequence[Sequence[str]], widow: Sequence[str] = ()) -> pb.ExplicitDeal:
    return pb.ExplicitDeal(hands=[pb.CardList(cards=list(h)) for h in cards], widow=list(widow))


def watch_all(stub: Stub, request: pb.WatchTableRequest) -> list[pb.WatchTableResponse]:
    return list(stub.WatchTable(request, timeout=10))


def vida_tables(stub: Stub) -> int:
    return len(stub.ListTables(pb.ListTablesRequest(game="vida")).tables)


# --------------------------------------------------------------------------- CreateTable


@pytest.mark.parametrize(
    ("options", "seats", "totals", "first_dealer", "reason"),
    [
        ({"bogus": 1}, 4, [], None, "bad_option"),
        ({"max_bid": 85}, 4, [], None, "bad_option"),  # R4.3: a multiple of 10
        ({"max_bid": 10010}, 4, [], None, "bad_option"),  # above the cap of 10000
        ({"max_bid": 1e300}, 4, [], None, "bad_option"),
        ({"max_bid": "100"}, 4, [], None, "bad_option"),
        ({"target_score": 0}, 4, [], None, "bad_option"),  # R6.9: at least 1
        ({"target_score": -10}, 4, [], None, "bad_option"),
        ({"target_score": "100"}, 4, [], None, "bad_option"),
        ({"target_score": 1.5}, 4, [], None, "bad_option"),
        ({"target_score": True}, 4, [], None, "bad_option"),
        ({"first_dealer": 7}, 4, [], None, "bad_option"),  # R3.1: random or a seat 0-3
        ({"first_dealer": "3"}, 4, [], None, "bad_option"),
        ({"declaration_timing": "soon"}, 4, [], None, "bad_option"),  # R5.7, R5.8
        ({"declaration_timing": ["after_auction"]}, 4, [], None, "bad_option"),
        ({"open_vida": "true"}, 4, [], None, "bad_option"),
        ({"wins_needed": 0}, 4, [], None, "bad_option"),  # R6.10
        ({}, 3, [], None, "bad_seats"),  # R2.3: exactly four
        ({}, 5, [], None, "bad_seats"),
        ({}, 4, [100], None, "bad_config"),  # R6.9: the two team totals
        ({}, 4, [1, 2, 3], None, "bad_config"),
        ({}, 4, [-1, 0], None, "bad_config"),
        ({}, 4, [3551, 0], None, "bad_config"),  # above the default target 3550 the game is won
        ({"target_score": 100}, 4, [101, 0], None, "bad_config"),
        ({}, 4, [], 7, "bad_config"),  # R3.1
        ({}, 4, [], -1, "bad_config"),
    ],
)
def test_create_table_refuses_bad_vida_options_seats_and_totals_section_7(
    stub: Stub, options: dict[str, Any], seats: int, totals: list[int], first_dealer: int | None, reason: str
) -> None:
    """Section 7 (options), R2.3 (four seats), R3.1 (first dealer), R6.9 (totals 0..target): each
    bad table is ``INVALID_ARGUMENT`` with its reason, and no table is created."""
    before = vida_tables(stub)
    request = pb.CreateTableRequest(game="vida", seats=seats, options=options, initial_totals=totals)
    if first_dealer is not None:
        request.first_dealer = first_dealer
    assert failure(lambda: stub.CreateTable(request))[:2] == (INVALID, reason)
    assert vida_tables(stub) == before


def test_create_table_takes_the_edges_of_the_ranges_section_7(stub: Stub) -> None:
    """An integral float (JSON has no ints) is an integer; totals may reach the target (R6.9, D34:
    a game is won only above it); the bid cap and the target at their bounds."""
    for options, totals in (
        ({"max_bid": 1000.0, "target_score": 1}, [0, 1]),
        ({"max_bid": 10000, "target_score": 1_000_000, "wins_needed": 99}, [0, 1_000_000]),
        ({}, [3550, 3550]),
    ):
        created = stub.CreateTable(pb.CreateTableRequest(game="vida", seats=4, options=options, initial_totals=totals))
        view = json.loads(stub.GetView(pb.GetViewRequest(table_id=created.table_id)).view.view_json)
        assert view["totals"] == totals
        assert view["options"]["max_bid"] == options.get("max_bid", 1000)


# --------------------------------------------------------------------------- explicit deals


def test_explicit_deals_that_are_not_the_32_card_deck_are_refused_r3_2(stub: Stub, auth: Auth, tables: Tables) -> None:
    """R3.2: a deck of exactly the 32 cards, or four hands of 8 (7 and a widow of 4 with
    ``open_vida``, R3.4); R2.2: no rank 2-6.  Each bad deal is ``INVALID_ARGUMENT`` and leaves the
    match unstarted; a seat may not deal explicitly (S5.3)."""
    table = Table(stub, auth, tables, {})
    uneven = [HANDS_A[0] + HANDS_A[1][:1], HANDS_A[1][1:], HANDS_A[2], HANDS_A[3]]
    for deal, reason in (
        (pb.ExplicitDeal(deck=DECK_A[:31]), "bad_deal"),
        (pb.ExplicitDeal(deck=[*DECK_A, "QD"]), "bad_deal"),  # 33 cards
        (pb.ExplicitDeal(deck=[*DECK_A[:31], "AH"]), "bad_deal"),  # AH twice, QD missing
        (pb.ExplicitDeal(deck=[*DECK_A[:31], "2H"]), "bad_deal"),  # R2.2
        (pb.ExplicitDeal(deck=[*DECK_A[:31], "ah"]), "bad_deal"),
        (pb.ExplicitDeal(deck=[*DECK_A[:31], "x" * 100]), "bad_card"),
        (pb.ExplicitDeal(deck=DECK_A, hands=[pb.CardList(cards=h) for h in HANDS_A]), "bad_deal"),
        (hands(HANDS_B), "bad_deal"),  # 7 cards without open_vida
        (hands(HANDS_A, WIDOW_B), "bad_deal"),  # a widow without open_vida
        (hands(HANDS_A[:3]), "bad_deal"),
        (hands(uneven), "bad_deal"),  # 9 and 7 cards
        (pb.ExplicitDeal(widow=WIDOW_B), "bad_deal"),
        (pb.ExplicitDeal(), "bad_deal"),
        (pb.ExplicitDeal(starter="7H", stock=DECK_A), "bad_deal"),  # the shedding games' fields
    ):
        assert table.refused(functools.partial(table.start, deal))[:2] == (INVALID, reason), deal
    assert table.refused(lambda: table.start(deck_a(), table.seats[0])) == (DENIED, "explicit_deal_owner_only", "")
    assert table.view()["table"]["status"] == "ready"

    open_table = Table(stub, auth, tables, {"open_vida": True})
    for deal in (hands(HANDS_B), hands(HANDS_A), hands(HANDS_B, WIDOW_B[:3]), hands(HANDS_B, ["KS", "KS", "7C", "8C"])):
        assert open_table.refused(functools.partial(open_table.start, deal))[:2] == (INVALID, "bad_deal"), deal
    open_table.start(hands(HANDS_B, WIDOW_B))
    view = open_table.view(0)
    assert (view["hand"], view["widow"]) == (["7H", "8H", "9H", "9S", "TS", "JS", "AS"], WIDOW_B)


def test_next_hand_deals_are_checked_like_the_first_r3_2(stub: Stub, auth: Auth, tables: Tables) -> None:
    """A manual-deal table: ``next_hand`` during a hand is ``hand_in_progress`` (section 8,
    ``start_hand``), a bad deal ``bad_deal``, a seat's explicit deal ``PERMISSION_DENIED``, a
    spectator's ``PERMISSION_DENIED``."""
    table = Table(stub, auth, tables, {}, manual_deal=True)
    table.start(deck_a())
    good = pb.Command(next_hand=pb.NextHand(deal=deck_a()))
    assert table.refused(lambda: table.send(table.owner, good)) == (REFUSED, "hand_in_progress", "R4.1")
    assert table.refused(lambda: table.act(0, pb.Command(next_hand=pb.NextHand()))) == (
        REFUSED,
        "hand_in_progress",
        "R4.1",
    )
    short = pb.Command(next_hand=pb.NextHand(deal=pb.ExplicitDeal(deck=DECK_A[:3])))
    assert table.refused(lambda: table.send(table.owner, short))[:2] == (INVALID, "bad_deal")
    assert table.refused(lambda: table.act(0, good)) == (DENIED, "explicit_deal_owner_only", "")
    assert table.refused(lambda: table.send(None, good))[:2] == (DENIED, "permission_denied")


# --------------------------------------------------------------------------- the auction


def test_refused_bids_and_vida_calls_give_their_reason_and_record_nothing_r4_3_r4_5(
    stub: Stub, auth: Auth, tables: Tables
) -> None:
    """R4.3 (bids: C/D/H/S, a multiple of 10 from 80, above the current bid, ``max_bid``), R4.5 and
    D3 (vida levels alternate, defenders first), R4.6 (no bid after a vida), R4.7 (b) (the fourth
    vida closes the auction), R4.1 (turn and phase); section 8's order of checks."""
    table = Table(stub, auth, tables, {})
    table.start(deck_a())
    points = (REFUSED, "invalid_points", "R4.3")
    suit = (REFUSED, "invalid_suit", "R4.3")
    table.run(
        [
            (0, bid(0, "H"), points),
            (0, bid(-10, "H"), points),
            (0, bid(85, "H"), points),
            (0, bid(2**31 - 1, "H"), points),
            (0, bid(-(2**31), "H"), points),
            (0, bid(1010, "H"), points),  # above max_bid 1000
            (0, bid(90, ""), suit),
            (0, bid(90, "X"), suit),
            (0, bid(90, "hearts"), suit),
            (0, bid(90, "h"), suit),  # suit letters are upper case (R2.2)
            (0, bid(90, "\x00"), suit),
            (0, bid(85, "X"), suit),  # the suit is checked first (section 8)
            (0, bid(90, "x" * 100_000), (INVALID, "bad_suit", "")),
            (0, vida(), (REFUSED, "no_bid", "R4.5")),
            (1, bid(90, "H"), (REFUSED, "not_your_turn", "R4.1")),
            (0, give("AH", "TH", "AS"), (REFUSED, "wrong_phase", "R4.1")),
            (0, declare(), (REFUSED, "wrong_phase", "R4.1")),
            (0, play("AH"), (REFUSED, "wrong_phase", "R4.1")),
            (0, pb.Command(play=pb.PlayCard(card="AH", suit="H")), (INVALID, "bad_command", "")),
            (0, pb.Command(draw=pb.DrawCard()), (INVALID, "bad_command", "")),
            (0, pb.Command(leave=pb.LeaveSeat()), (INVALID, "bad_command", "")),
            (0, pb.Command(), (INVALID, "bad_command", "")),
            (0, bid(80, "H"), None),
            (1, bid(80, "S"), (REFUSED, "bid_too_low", "R4.3")),  # equal points, another suit (D8)
            (1, pass_(), None),
            (2, vida(), (REFUSED, "not_entitled", "R4.5")),  # level 1 is the defenders' (D3)
            (2, pass_(), None),
            (3, vida(), None),  # vida x2
            (0, bid(90, "H"), (REFUSED, "bidding_closed", "R4.6")),
            (0, bid(95, "H"), points),  # invalid_points comes before bidding_closed
            (0, vida(), None),  # contra vida x4
            (1, vida(), None),  # third vida x6
            (2, vida(), None),  # the fourth vida x8 closes the auction (R4.7 b)
            (3, vida(), (REFUSED, "wrong_phase", "R4.1")),
            (3, pass_(), (REFUSED, "wrong_phase", "R4.1")),
            (0, declare(), (REFUSED, "wrong_phase", "R4.1")),  # no declare under the default timing (R5.7)
        ]
    )
    view = table.view(0)
    assert (view["phase"], view["contract"]["level"], view["contract"]["multiplier"]) == ("play", 4, 8)


# --------------------------------------------------------------------------- open vida and the Pilotta timing


def test_gives_and_declarations_are_refused_unless_due_r5_1_r5_8(stub: Stub, auth: Auth, tables: Tables) -> None:
    """R5.1, D30: only the contract holder gives, exactly three distinct cards of his 11, after the
    auction; R5.8: ``declare`` by the seat to act in the first trick, with a combination, once,
    before his card."""
    table = Table(stub, auth, tables, PILOTTA)
    table.start(hands(HANDS_B, WIDOW_B))
    give_size = (REFUSED, "invalid_give", "R5.1")
    table.run(
        [
            (0, give("JS", "9S", "AS"), (REFUSED, "wrong_phase", "R4.1")),
            (0, bid(90, "S"), None),
            (1, pass_(), None),
            (2, pass_(), None),
            (3, pass_(), None),
            (1, give("7D", "9D", "JD"), (REFUSED, "not_your_turn", "R4.1")),
            (0, give(), give_size),
            (0, give("7C", "8C"), give_size),
            (0, give("7C", "8C", "7H", "8H"), give_size),
            (0, give("7C", "7C", "7H"), give_size),
            (0, give("7C", "7C", "7C"), give_size),
            (0, give("7C", "8C", "AD"), (REFUSED, "card_not_in_hand", "R5.1")),
            (0, give("7C", "8C", "2H"), (REFUSED, "invalid_card", "R2.2")),
            (0, give("7C", "8C", "6H", "AD"), (REFUSED, "invalid_card", "R2.2")),  # invalid_card first
            (0, give("7C", "8C", "zz"), (INVALID, "bad_card", "")),
            (0, give("7C", "8C", ""), (INVALID, "bad_card", "")),
            (0, give(*(["AH"] * 33)), (INVALID, "bad_command", "")),
            (0, declare(), (REFUSED, "wrong_phase", "R4.1")),  # nothing before the give (R5.1)
            (0, play("JS"), (REFUSED, "wrong_phase", "R4.1")),
            (0, pass_(), (REFUSED, "wrong_phase", "R4.1")),
        ]
    )
    first = table.act(0, give("7C", "8C", "7H"), command_id="the-give")
    again = table.act(0, give("9H", "8H", "AS"), command_id="the-give")  # the first result, nothing new
    assert again == first
    table.run(
        [
            (0, give("7C", "8C", "7H"), (REFUSED, "wrong_phase", "R4.1")),
            (1, declare(), (REFUSED, "not_your_turn", "R4.1")),
            (0, declare(), None),  # 9S TS JS QS KS AS: seq6
            (0, declare(), (REFUSED, "already_declared", "R5.8")),
            (0, play("JS"), None),
            (1, declare(), (REFUSED, "nothing_to_declare", "R5.8")),
            (1, play("7S"), None),
            (2, play("8C"), None),
            (3, play("9C"), None),  # JS 7S 8C 9C: ann; the comparison follows (R5.8)
            (0, declare(), (REFUSED, "too_late", "R5.8")),
        ]
    )


# --------------------------------------------------------------------------- play


def test_bad_plays_and_belote_on_a_wrong_card_are_refused_r4_10_r5_9(stub: Stub, auth: Auth, tables: Tables) -> None:
    """R2.2 (no rank 2-6), R4.10-R4.12 (duties), R5.9 (belote only with the first of the king and
    queen of trumps held together); a code that does not parse is malformed (``bad_card``)."""
    table = Table(stub, auth, tables, {})
    table.start(deck_a())
    for seat, command in ((0, bid(80, "H")), (1, pass_()), (2, pass_()), (3, pass_())):
        table.act(seat, command)
    table.run(
        [
            (0, play("AS", belote=True), (REFUSED, "belote_not_allowed", "R5.9")),
            (0, play("AH", belote=True), (REFUSED, "belote_not_allowed", "R5.9")),  # ann has no KH/QH
            (0, play("2H"), (REFUSED, "invalid_card", "R2.2")),
            (0, play("JH"), (REFUSED, "card_not_in_hand", "R4.10")),
            (0, play("ah"), (INVALID, "bad_card", "")),
            (0, play(""), (INVALID, "bad_card", "")),
            (0, play("AH\x00"), (INVALID, "bad_card", "")),
            (0, play("A" * 1_000_000), (INVALID, "bad_card", "")),
            (1, play("7H"), (REFUSED, "not_your_turn", "R4.1")),
            (0, bid(90, "H"), (REFUSED, "wrong_phase", "R4.1")),
            (0, vida(), (REFUSED, "wrong_phase", "R4.1")),
            (0, give("AH", "TH", "AS"), (REFUSED, "wrong_phase", "R4.1")),  # not open_vida
            (0, play("AH"), None),
            (1, play("7S"), (REFUSED, "must_follow_suit", "R4.10")),
            (1, play("7H"), None),
            (2, play("KH", belote=True), (REFUSED, "must_overtrump", "R4.12")),  # the duty comes first
            (2, play("9H", belote=True), (REFUSED, "belote_not_allowed", "R5.9")),
        ]
    )


# --------------------------------------------------------------------------- tokens and ids


def test_tokens_decide_who_acts_and_unknown_tables_are_not_found_r4_1(stub: Stub, auth: Auth, tables: Tables) -> None:
    """The seat comes from the token: another seat's token is that seat (``not_your_turn``); the
    owner, a spectator and foreign or malformed tokens may not act."""
    table = Table(stub, auth, tables, {})
    table.start(deck_a())
    other = Table(stub, auth, tables, {})
    assert table.refused(lambda: table.act(1, bid(80, "H"))) == (REFUSED, "not_your_turn", "R4.1")
    assert table.refused(lambda: table.send(table.owner, bid(80, "H")))[:2] == (DENIED, "permission_denied")
    assert table.refused(lambda: table.send(None, bid(80, "H")))[:2] == (DENIED, "permission_denied")
    assert table.refused(lambda: table.send(other.seats[0], bid(80, "H")))[:2] == (DENIED, "bad_token")
    assert table.refused(lambda: table.send(auth("x" * 7_000), bid(80, "H")))[:2] == (DENIED, "bad_token")
    assert table.refused(lambda: table.send((("authorization", "Basic abc"),), bid(80, "H")))[:2] == (
        DENIED,
        "bad_token",
    )
    for command_id in ("", "x" * 129):
        assert table.refused(functools.partial(table.act, 0, bid(80, "H"), command_id))[:2] == (
            INVALID,
            "bad_command_id",
        )
    unknown = pb.ActRequest(table_id="00000000-0000-4000-8000-000000000000", command_id="c", command=bid(80, "H"))
    assert failure(lambda: stub.Act(unknown, metadata=table.seats[0]))[:2] == (
        grpc.StatusCode.NOT_FOUND,
        "table_not_found",
    )
    bad_id = pb.ActRequest(table_id=table.table_id.upper(), command_id="c", command=bid(80, "H"))
    assert failure(lambda: stub.Act(bad_id, metadata=table.seats[0]))[:2] == (INVALID, "bad_table_id")
    first = table.act(0, bid(80, "H"), command_id="mine")
    assert table.act(0, bid(200, "S"), command_id="mine") == first  # a replayed id: the first result
    assert table.state()[0] == first.version
    other_seat = table.act(1, bid(90, "S"), command_id="mine")  # another caller's id is another command
    assert json.loads(other_seat.events[0].payload_json) == {"seat": 1, "points": 90, "suit": "S"}


# --------------------------------------------------------------------------- the end of the match


def test_after_the_match_ended_every_command_is_match_over_r6_10(stub: Stub, auth: Auth, tables: Tables) -> None:
    """R6.10: once the match is over no command is accepted (``match_over`` first, section 8);
    a watch from beyond the last version is ``OUT_OF_RANGE``; the stream from the last version
    ends at once; the record verifies."""
    table = Table(stub, auth, tables, {"target_score": 1, "wins_needed": 1}, manual_deal=True)
    table.start(deck_a())
    for seat, command in ((0, bid(80, "H")), (1, pass_()), (2, pass_()), (3, pass_())):
        table.act(seat, command)
    for seat, card in PLAY_A:
        table.act(seat, play(card))
    view = table.view()
    assert (view["match_over"], view["table"]["status"]) == (True, "over")
    over = (REFUSED, "match_over", "R6.10")
    table.run(
        [
            (3, pass_(), over),
            (3, play("7C"), over),
            (0, bid(85, "X"), over),  # match_over before the bid's own checks
            (1, vida(), over),
            (2, declare(), over),
            (0, give("7C", "8C", "9C"), over),
        ]
    )
    assert table.refused(lambda: table.send(table.owner, pb.Command(next_hand=pb.NextHand()))) == over
    assert table.refused(lambda: table.send(table.owner, pb.Command(next_hand=pb.NextHand(deal=deck_a())))) == over
    version = table.state()[0]
    for after in (version + 1, 2**64 - 1):
        request = pb.WatchTableRequest(table_id=table.table_id, from_version=after)
        assert failure(functools.partial(watch_all, stub, request))[:2] == (
            grpc.StatusCode.OUT_OF_RANGE,
            "version_ahead",
        )
    assert list(stub.WatchTable(pb.WatchTableRequest(table_id=table.table_id, from_version=version), timeout=10)) == []
    lines = [
        json.loads(line) for line in stub.GetRecord(pb.GetRecordRequest(table_id=table.table_id)).jsonl.splitlines()
    ]
    assert audit_record(lines).ok
    replay = Replay(lines)
    out = io.StringIO()
    _interactive(replay, 0, None, io.StringIO("g \u00b2\ng 123456789012345678901234567890\nq\n"), out)
    assert "n, p, g N or q" in out.getvalue()  # "g ²" is not a position; a huge one goes to the end
    assert f"[{replay.length}/{replay.length}]" in out.getvalue()


# --------------------------------------------------------------------------- concurrency


def test_concurrent_acts_on_one_table_accept_one_call_per_turn_r4_2(stub: Stub, auth: Auth, tables: Tables) -> None:
    """Many commands at once from the four seats: each is accepted or refused with a reason (never
    an internal error), the accepted calls go round the table in order (R4.2), and the stored log
    holds exactly the accepted ones."""
    table = Table(stub, auth, tables, {})
    table.start(deck_a())
    start_version = table.state()[0]

    def one(i: int) -> str:
        seat = i % 4
        command = (bid(80 + 10 * (i // 4), "CDHS"[i % 4]), pass_(), vida())[i % 3]
        try:
            table.act(seat, command, command_id=f"k{i}")
        except grpc.RpcError as err:
            return str(err.code().name)
        return "OK"

    with ThreadPoolExecutor(32) as pool:
        outcomes = collections.Counter(pool.map(one, range(240)))
    assert set(outcomes) <= {"OK", "FAILED_PRECONDITION"}, outcomes
    calls = [e for e in tables.stored_events(table.table_id) if e.name in ("BidMade", "Passed", "VidaCalled")]
    assert len(calls) == outcomes["OK"] > 0
    assert [e.payload["seat"] for e in calls] == [i % 4 for i in range(len(calls))]  # seat 0 first, in turn
    assert table.state()[0] >= start_version + outcomes["OK"]


# --------------------------------------------------------------------------- regressions: size


def test_a_give_or_deal_of_more_card_codes_than_any_game_has_is_refused_unread(
    stub: Stub, auth: Auth, tables: Tables
) -> None:
    """A request may carry at most ``MAX_CARD_CODES`` card codes (a 60 MB ``give`` used to be
    copied on the event loop, stalling every call for seconds): refused, by its count, before
    anything is copied; the domain's own bounds (a give of more than 32 cards, R5.1) still apply
    below it."""
    limit = convert.MAX_CARD_CODES
    table = Table(stub, auth, tables, {})
    table.start(deck_a())
    assert table.refused(lambda: table.act(0, give(*(["AH"] * (limit + 1))))) == (INVALID, "bad_command", "")
    assert table.refused(lambda: table.act(0, give(*(["AH"] * limit)))) == (INVALID, "bad_command", "")
    fresh = Table(stub, auth, tables, {})
    for deal in (
        pb.ExplicitDeal(deck=["AH"] * (limit + 1)),
        pb.ExplicitDeal(hands=[pb.CardList(cards=["AH"])] * (limit + 1)),
        pb.ExplicitDeal(reshuffles=[pb.CardList(cards=["AH"] * 5_001)] * 2),
        pb.ExplicitDeal(deck=DECK_A, stock=["AH"] * limit),
    ):
        assert fresh.refused(functools.partial(fresh.start, deal))[:2] == (INVALID, "bad_deal")
    with pytest.raises(InvalidInput) as raised:
        convert.command_to_dict(give(*(["7C"] * (limit + 1))))
    assert raised.value.reason == "bad_command"
    assert len(convert.command_to_dict(give(*(["7C"] * limit)))["cards"]) == limit
    with pytest.raises(InvalidInput) as raised:
        convert.deal_to_dict(pb.ExplicitDeal(deck=["7C"] * (limit - 3), widow=["7C"] * 4))
    assert raised.value.reason == "bad_deal"
    assert convert.deal_to_dict(pb.ExplicitDeal(deck=["7C"] * (limit - 4), widow=["7C"] * 4))["widow"] == ["7C"] * 4


def test_requests_are_converted_off_the_event_loop(
    server: Any, auth: Auth, tables: Tables, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The conversions of CreateTable's options, StartMatch's deal and of an Act's command over
    ``LOOP_REQUEST_BYTES`` run in the thread pool, as the store calls do, so that a large request
    never holds the event loop.  (A move's command, a few bytes, is converted where the move runs:
    on PostgreSQL on the event loop, ``trapoula.service.loopacts``.)"""
    threads: dict[str, int] = {}

    def spy(name: str) -> None:
        original = getattr(convert, name)

        def wrapper(*args: Any) -> Any:
            threads[name] = threading.get_ident()
            return original(*args)

        monkeypatch.setattr(convert, name, wrapper)

    for name in ("struct_to_dict", "start_deal", "command_to_dict"):
        spy(name)
    large = pb.Command(json=json.dumps({"kind": "bid", "points": 80, "suit": "H"}) + " " * LOOP_REQUEST_BYTES)
    with grpc.insecure_channel(f"127.0.0.1:{server.port}") as channel:
        table = Table(table_pb2_grpc.TableServiceStub(channel), auth, tables, {})
        table.start(deck_a())
        played = table.act(0, large)
        assert pb.ActRequest(table_id=table.table_id, command=large).ByteSize() > LOOP_REQUEST_BYTES
        assert played.events[0].name == "BidMade"  # the bid of 80 in hearts made (R4.3)
    assert set(threads) == {"struct_to_dict", "start_deal", "command_to_dict"}
    assert server.thread.ident not in threads.values()


def test_bid_points_beyond_32_bits_are_invalid_input_without_echo(tables: Tables) -> None:
    """``Tables.act`` takes the wire's 32-bit points only: a larger int is ``bad_command`` (its
    decimal text, over 4300 digits, used to raise a bare ``ValueError`` in the refusal message)."""
    table_id, _ = tables.create_table("vida", 4, {"first_dealer": 3}, manual_deal=True)  # for the explicit deal
    for name in ("ann", "bob", "cy", "dee"):
        tables.join(table_id, name)
    tables.start_match(table_id, OWNER, "start", {"deck": DECK_A})
    version = tables.view(table_id, SPECTATOR)[0]
    for points in (10**5000, 2**31, -(2**31) - 1):
        with pytest.raises(InvalidInput) as raised:
            tables.act(table_id, seat_principal(0), "c", {"kind": "bid", "points": points, "suit": "H"})
        assert raised.value.reason == "bad_command"
    with pytest.raises(CommandRejected) as rejected:  # within 32 bits the rules judge it (R4.3)
        tables.act(table_id, seat_principal(0), "c", {"kind": "bid", "points": 2**31 - 1, "suit": "H"})
    assert (rejected.value.reason, rejected.value.rule) == ("invalid_points", "R4.3")
    assert tables.view(table_id, SPECTATOR)[0] == version


# --------------------------------------------------------------------------- regressions: the client


@pytest.mark.parametrize(
    "command",
    [
        {"kind": "play", "card": "KH", "belote": "false"},  # used to be sent as belote: true
        {"kind": "play", "card": "KH", "belote": 1},
        {"kind": "play", "card": "KH", "announce": "no"},
        {"kind": "next_hand", "deal": ["AH"]},  # used to be sent as a seeded deal
        {"kind": "next_hand", "deal": "deck"},
        {"kind": "next_hand", "deal": {"dek": DECK_A}},  # a misspelt field used to be dropped
        {"kind": "next_hand", "deal": {"hands": "AH TH"}},  # used to be four one-letter hands
        {"kind": "next_hand", "deal": {"starter": 5}},
        {"kind": "bid", "points": 90.0, "suit": "H"},
        {"kind": "bid", "points": 2**31, "suit": "H"},
        {"kind": "give", "cards": [7, 8, 9]},
    ],
)
def test_the_client_refuses_sloppy_vida_commands_before_sending_section_8(command: dict[str, Any]) -> None:
    """``command_message`` raises ``InvalidArgument`` for a field of the wrong type instead of
    coercing it (section 8: ``belote`` is true or false; R3.2: an explicit deal is a mapping of
    its fields)."""
    with pytest.raises(InvalidArgument):
        command_message(command)


def test_the_client_keeps_well_formed_vida_commands_section_8() -> None:
    """Belote true or absent (R5.9), a give as a list or one string of codes (R5.1), a deal's
    fields (R3.2)."""
    assert command_message({"kind": "play", "card": "KH", "belote": True}).play.belote
    assert not command_message({"kind": "play", "card": "KH", "belote": None}).play.belote
    assert list(command_message({"kind": "give", "cards": "7C 8C 7H"}).give.cards) == ["7C", "8C", "7H"]
    deal = command_message({"kind": "next_hand", "deal": {"hands": [h[:7] for h in HANDS_A], "widow": WIDOW_B}})
    assert [list(h.cards) for h in deal.next_hand.deal.hands] == [h[:7] for h in HANDS_A]
    assert not command_message({"kind": "next_hand", "deal": None}).next_hand.HasField("deal")


def test_start_match_with_a_deal_that_is_no_mapping_is_invalid_argument_r3_2() -> None:
    """``TableClient.start_match`` raised ``AttributeError`` for a list; now ``InvalidArgument``,
    before any call (no server listens at the address)."""
    with TableClient("127.0.0.1:9", timeout=1) as client:
        for deal in (DECK_A, "deck", 5):
            with pytest.raises(InvalidArgument):
                client.start_match("00000000-0000-4000-8000-000000000000", deal=deal)  # type: ignore[arg-type]


@pytest.mark.parametrize("typed", ["\u00b2", "9" * 5000, "9" * 5000 + "h", "\u0669\u0660h"])
def test_the_terminal_asks_again_for_digits_it_cannot_read_r4_3(typed: str) -> None:
    """``²`` is a digit to ``str.isdigit`` but not to ``int``, and 5000 digits exceed ``int``'s
    limit: both used to end the game with ``ValueError``; now the prompt asks again."""
    out = io.StringIO()
    bids = [{"kind": "bid", "points": 90, "suit": "H"}]
    legal = [{"kind": "pass"}, *bids]
    turn = VIDA_TEXT.turn_for({"game": "vida"}, legal, ())  # bids are typed, the menu lists the pass

    def parse(line: str) -> Any:
        return VIDA_TEXT.parse_move(line, legal)

    assert _read_choice(io.StringIO(f"{typed}\nq\n"), out, turn, parse) is None
    assert "Please type" in out.getvalue()
    assert _read_choice(io.StringIO("90h\n"), io.StringIO(), turn, parse) == bids[0]
    assert _read_choice(io.StringIO("1\n"), io.StringIO(), turn, parse) == {"kind": "pass"}
