"""The terminal as a person meets it: ``trapoula`` run in a pseudo-terminal where it matters (colour,
typed moves, the server's start-up lines), else in this process; the record command, local and
remote play's table, record and leaving, the menu, the lists and the replay's positions."""

from __future__ import annotations

import io
import os
import pty
import random
import re
import select
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pytest
from cli_helpers import CARD, Person, cli

from trapoula.clients.play import LocalSession, bot_name, play_loop
from trapoula.clients.table import TableClient
from trapoula.domain.games.agonia.text import TEXT as AGONIA
from trapoula.domain.games.romis.text import render_view as romis_view
from trapoula.domain.games.shedding.text import describe_event as shedding_event
from trapoula.domain.games.vida.text import TEXT as VIDA

pytestmark = pytest.mark.timeout(300)

SEED = "ab" * 32
RED = "\x1b[31m"


class Terminal:
    """A command run in a pseudo-terminal (stdin, stdout and stderr all on it), read as a person
    reads the screen and answered line by line."""

    def __init__(self, argv: Sequence[str], env: dict[str, str] | None = None, cwd: Path | None = None) -> None:
        master, slave = pty.openpty()
        self.proc = subprocess.Popen(
            list(argv), stdin=slave, stdout=slave, stderr=slave, env=env, cwd=cwd, start_new_session=True
        )
        os.close(slave)
        self.master = master
        self.text = ""
        self.seen = 0  # where the last match ended
        self._raw = b""

    def read_until(self, pattern: str, timeout: float = 60) -> re.Match[str]:
        """Read until ``pattern`` is on the screen after the last match; its match."""
        start = self.seen
        deadline = time.monotonic() + timeout
        while True:
            found = re.search(pattern, self.text[start:])
            if found:
                self.seen = start + found.end()
                return found
            left = deadline - time.monotonic()
            assert left > 0, f"{pattern!r} not shown: {self.text[-2000:]!r}"
            ready, _, _ = select.select([self.master], [], [], min(left, 1))
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:  # the command ended
                    chunk = b""
                if not chunk and self.proc.poll() is not None:
                    assert re.search(pattern, self.text[start:]), f"{pattern!r} not shown: {self.text[-2000:]!r}"
                self._raw += chunk
                self.text = self._raw.decode("utf-8", "replace").replace("\r\n", "\n")

    def type(self, line: str) -> None:
        os.write(self.master, (line + "\n").encode())

    def close(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            code = self.proc.wait(timeout=30)
        finally:
            os.close(self.master)
        return code


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    env.update(TERM="xterm", **extra)
    return env


TRAPOULA = [sys.executable, "-m", "trapoula.clients"]


# --------------------------------------------------------------------------- 3. the terminal


@pytest.mark.process
def test_a_person_types_a_card_in_agonia_and_sees_red_suits_in_a_colour_terminal() -> None:
    """In a pseudo-terminal: the red suits (♥ ♦) come in ANSI red, the black ones do not; a card
    typed as ``QC`` is played (S11) like its menu number; ``q`` leaves and says the match is local."""
    term = Terminal([*TRAPOULA, "play", "--seats", "2", "--target", "0", "--seed", SEED], env=_env())
    try:
        term.read_until(r"Your move \[")
        menu = term.text[term.text.rfind("\n\n", 0, term.seen) : term.seen]
        plays = re.findall(r"\d\) play (\S+)\n", re.sub(r"\x1b\[[0-9;]*m", "", menu))
        assert plays, menu
        assert re.search(rf"{re.escape(RED)}(?:10|[2-9JQKA])[♥♦]\x1b\[0?m", term.text)  # a red card, in red
        assert not re.search(rf"{re.escape(RED)}(?:10|[2-9JQKA])?[♣♠]", term.text)  # never a black one
        card = plays[0]
        code = card.replace("10", "T").replace("♣", "C").replace("♦", "D").replace("♥", "H").replace("♠", "S")
        term.type(code.lower())  # typed, in lower case
        term.read_until(rf"You play (?:{re.escape(RED)})?{re.escape(card)}")
        term.read_until(r"Your move \[")
        term.type("q")
        term.read_until(r"You leave the table\.")
    finally:
        term.close()
    assert "Local match (no server): no record is kept; play --record FILE keeps one." in term.text


@pytest.mark.process
def test_no_colour_in_a_pipe_nor_with_no_color() -> None:
    """Piped (not a terminal) the output has no escape code; in a terminal with NO_COLOR neither."""
    code, text = cli(["play", "--seats", "2", "--target", "0", "--seed", SEED], io.StringIO("1\n" * 300))
    assert code == 0 and "♥" in text + "♦" and "\x1b[" not in text
    term = Terminal([*TRAPOULA, "play", "--seats", "2", "--target", "0", "--seed", SEED], env=_env(NO_COLOR="1"))
    try:
        term.read_until(r"Your move \[")
        term.type("q")
        term.read_until(r"You leave the table\.")
    finally:
        term.close()
    assert "\x1b[" not in term.text and re.search(CARD, term.text)


def _code(card: str) -> str:
    """A card as shown (``10♥``) as typed (``TH``)."""
    return card.replace("10", "T").translate(str.maketrans("♣♦♥♠", "CDHS"))


class CardTypist(Person):
    """A person who types the first card the menu offers to play, as its code (``QC``); passes in
    vida's auction (``pass``); gives the first three cards of his hand (vida R5.1); quits once he has
    typed ``limit`` cards."""

    def __init__(self, out: io.StringIO, limit: int = 3) -> None:
        super().__init__(out)
        self.cards: list[str] = []
        self.card_limit = limit

    def answer(self, text: str, screen: str) -> str:
        play = re.search(r"\d\) play ((?:10|[2-9JQKA])[♣♦♥♠])(?:, declare ([♣♦♥♠]))?", screen)
        if play:
            if len(self.cards) >= self.card_limit:
                return "q"
            self.cards.append(play.group(1))
            suit = f" {_code(play.group(2))}" if play.group(2) else ""  # a wild card and the suit it declares (S6.2)
            return _code(play.group(1)).lower() + suit
        if "give three cards" in screen:
            hand = re.search(r"^Your hand \(you\): (.*)$", screen, re.M)
            return " ".join(_code(c) for c in hand.group(1).split()[:3]) if hand else "q"
        return "pass" if re.search(r"\d\) pass", screen) else "1"


@pytest.mark.parametrize("game", ["agonia", "crazy_eights", "mau_mau", "vida"])
def test_every_game_reads_a_typed_card(game: str) -> None:
    """A card typed as its code (``qc``) is played in every game whose moves are cards (S11 of the
    shedding games, vida R4.9-R4.13; giminaiciai and romis read theirs: their own tests)."""
    out = io.StringIO()
    person = CardTypist(out)
    seats = 4 if game == "vida" else 2
    session = LocalSession(game, seats, "heuristic", seed=SEED, rng=random.Random(5))
    assert play_loop(session, person.stdin(), out) == 0
    text = out.getvalue()
    assert len(person.cards) == 3, text[-2000:]
    for card in person.cards:
        assert re.search(rf"(^|: )You play {card}[ \n]", text, re.M), card
    assert "Refused" not in text


def test_the_only_legal_move_is_made_and_said_without_a_prompt() -> None:
    """With ``--seed`` the person's first turn offers only a draw (nothing matches the up-card, S7):
    it is made and said, no prompt; then his pass, the only move after a draw (agonia R4.4)."""
    code, text = cli(["play", "--seats", "2", "--target", "0", "--seed", SEED], io.StringIO("q\n"))
    assert code == 0
    before = text.split("Your move [", 1)[0]
    assert (
        "Totals: you 0, heuristic bot 1 0\nYour only move: draw a card\nYou draw 1 card: " in before
    )  # the view, then it
    assert "Your only move: pass\nYou pass\n" in before
    assert "  1) " not in before.split("Your only move: draw a card", 1)[0]  # no menu was printed for it


def test_one_menu_entry_per_distinct_move_an_ace_declares() -> None:
    """An ace played without a declaration keeps its own suit (S4.3, agonia R5.1.2): ``play A♠`` and
    ``play A♠, declare ♠`` are one move, listed once; the four declarations stay; ``AS H`` typed
    names the one declaring hearts."""
    legal = [{"kind": "play", "card": "AS"}] + [{"kind": "play", "card": "AS", "suit": s} for s in "CDHS"]
    legal.append({"kind": "draw"})
    turn = AGONIA.turn_for({"pending_draw": 0}, legal, ["you", "bob"])
    assert turn.lines == (
        "play A♠, declare ♣",
        "play A♠, declare ♦",
        "play A♠, declare ♥",
        "play A♠, declare ♠",
        "draw a card",
    )
    assert AGONIA.parse_move("AS H", legal) == {"kind": "play", "card": "AS", "suit": "H"}
    assert AGONIA.parse_move("as", legal) == {"kind": "play", "card": "AS"}
    assert AGONIA.parse_move("draw", legal) == {"kind": "draw"}
    assert AGONIA.parse_move("QC", legal) == {"kind": "play", "card": "QC"}  # not legal: sent, the rules refuse it


def test_the_up_card_is_said_once() -> None:
    """The up-card turned (S5) is shown by the view that follows; its event says nothing more in
    play (a line only with a penalty to take or a suit to choose), and it stays in the replay."""
    code, text = cli(["play", "--seats", "2", "--target", "0", "--seed", SEED], io.StringIO("q\n"))
    assert code == 0
    first = text.split("Your only move", 1)[0]
    assert first.count("Up-card 2♦") == 1 and "\nUp-card 2♦, suit ♦\n" in first
    assert shedding_event("StarterTurned", {"card": "2D"}, ["ann"], 0) is None
    assert shedding_event("StarterTurned", {"card": "2D"}, ["ann"], 0, verbose=True) == "Up-card 2♦"
    assert (
        shedding_event("StarterTurned", {"card": "7D", "pending_draw": 2}, ["ann"], 0) == "Up-card 7♦: 2 cards to take"
    )


def test_reason_codes_read_as_words() -> None:
    """A draw of a last seven's penalty (agonia R5.2.6) and a skip by a nine (R5.4) say why in words."""
    names = ["ann", "bob"]
    drawn = {"seat": 1, "cards": None, "count": 2, "reason": "last_seven"}
    assert (
        shedding_event("CardsDrawn", drawn, names, me=0)
        == "bob draws 2 cards (the penalty of a 7 played as a last card)"
    )
    assert shedding_event("TurnSkipped", {"seat": 0, "reason": "nine"}, names, me=0) == "You are skipped by a 9"
    missed = {"seat": 1, "cards_left": 1, "penalty": "draw_one"}
    assert (
        AGONIA.describe_event("AnnouncementMissed", missed, names, 0)
        == "bob did not announce 1 card left: one card to draw"
    )
    code, text = cli(["play", "--seats", "2", "--target", "0", "--seed", SEED], io.StringIO("1\n" * 300))
    assert code == 0 and "last_seven" not in text and "(nine)" not in text and "You are skipped by a 9" in text


def test_vida_trick_line_names_who_played_each_card_and_totals_name_the_players() -> None:
    """A trick (R4.14) read in order names each card's player; the totals (R6.9) name each team's
    players (R2.3: seats 0 and 2 against 1 and 3)."""
    names = ["ann", "bob", "cy", "dee"]
    describe = VIDA.narrate()
    for seat, card in ((1, "7H"), (2, "AH"), (3, "8H"), (0, "TH")):
        describe("CardPlayed", {"seat": seat, "card": card}, names, 0)
    line = describe(
        "TrickTaken", {"trick_no": 1, "winner": 2, "cards": ["7H", "AH", "8H", "TH"], "points": 21}, names, 0
    )
    assert line == "Trick 1: bob 7♥, cy A♥, dee 8♥, you 10♥; won by cy (21 points)"
    view = {"game": "vida", "names": names, "seat": 0, "totals": [120, 40], "games_won": [0, 1], "options": {}}
    assert (
        "Totals: team 0 (you and cy) 120, team 1 (bob and dee) 40; games won: team 0 0, team 1 1"
        in VIDA.render_view(view)
    )


def test_romis_counts_the_persons_own_hand_as_shown() -> None:
    """After turning up an auxiliary card (R6.1) the person holds it at once; the others know his
    count of the last resolved round (R5.4): his own count is the hand he is shown."""
    session = LocalSession("romis", 2, "heuristic", seed=SEED)
    out = io.StringIO()
    assert play_loop(session, io.StringIO("1\n1\nq\n"), out) == 0
    for screen in out.getvalue().split("\n\n"):
        hand = re.search(r"^Your hand \(you\): (.*)$", screen, re.M)
        count = re.search(r"hands: you (\d+),", screen)
        if hand and count:
            assert int(count.group(1)) == len(hand.group(1).split()), screen
    view = {"phase": "play", "seat": 0, "names": ["ann", "bob"], "hand": ["5C", "QC", "5S"], "hand_sizes": [2, 5]}
    assert "hands: ann 3, bob 5" in romis_view({**view, "stock_count": 30})


# --------------------------------------------------------------------------- 2. records, tables, leaving


def test_local_play_writes_its_record_on_request(tmp_path: Path) -> None:
    """``play --record FILE`` writes the match's record (unsigned, hash-chained: docs/record.md) at its
    end; ``trapoula verify`` verifies it and ``trapoula replay`` steps through it."""
    path = tmp_path / "mine.jsonl"
    code, text = cli(
        ["play", "--seats", "2", "--target", "0", "--seed", SEED, "--record", str(path)], io.StringIO("1\n" * 300)
    )
    assert code == 0 and "Thanks for playing." in text
    assert f"Record written to {path}: the whole match, 1 finished hand(s)" in text
    code, verified = cli(["verify", str(path)])
    assert code == 0 and "record verified" in verified and "1 finished hand(s), 1 verified" in verified
    code, left = cli(
        ["play", "--seats", "2", "--seed", SEED, "--record", str(tmp_path / "left.jsonl")], io.StringIO("q\n")
    )
    assert code == 0 and "the hands finished before you left, 0 finished hand(s)" in left
    assert cli(["verify", str(tmp_path / "left.jsonl")])[0] == 0  # never cut in the middle of a hand (REC7)


def test_play_at_a_server_shows_the_table_and_says_what_quitting_leaves(address: str, tmp_path: Path) -> None:
    """At a server: the table id is printed; quitting agonia (no command leaves a match) says the
    table stays playing; quitting mau_mau leaves the seat (mau_mau R6.10) and the others play on.
    The bots are named as the server names those it seats (``heuristic bot 1``)."""
    kept = tmp_path / "server.jsonl"
    code, text = cli(["play", "--address", address, "--seats", "2", "--record", str(kept)], io.StringIO("q\n"))
    assert code == 0
    table = re.search(r"^Table (\S+) at ", text, re.M)
    assert table, text
    assert f"Record written to {kept}: the hands finished so far, as the server signed it." in text
    code, verified = cli(["verify", str(kept)])
    assert code == 0 and f"table {table.group(1)} (agonia)" in verified
    assert f"A seat cannot leave a match of agonia: table {table.group(1)} stays playing at the server" in text
    assert "Match of agonia: you, heuristic bot 1" in text and bot_name("heuristic", 1) == "heuristic bot 1"
    with TableClient(address) as client:
        status = {t.table_id: t.status for t in client.list_tables()}
    assert status[table.group(1)] == "playing"
    code, fetched = cli(["record", table.group(1), "--out", str(tmp_path / "open.jsonl"), "--address", address])
    assert code == 0 and "0 finished hand(s)" in fetched and "the match is not over" in fetched, fetched
    code, text = cli(["play", "--address", address, "--game", "mau_mau", "--seats", "3"], io.StringIO("q\n"))
    assert code == 0
    table = re.search(r"^Table (\S+) at ", text, re.M)
    assert table and f"You left the match: your seat at table {table.group(1)} is vacant" in text
    with TableClient(address) as client:
        now = client.view(table.group(1))
        names = []
        with client.watch(table.group(1), 0) as updates:  # a spectator's events, to now
            for update in updates:
                names.append(update.name)
                if update.version >= now.version:
                    break
    assert now.view["names"][0] is None and now.view["totals"][0] is None  # the seat is vacant (R6.10)
    after = names[names.index("PlayerLeft") + 1 :]
    assert after and after[0] != "MatchEnded" and "CardPlayed" in after  # the two others play on


def test_record_fetches_a_finished_matchs_record(address: str, tmp_path: Path) -> None:
    """``trapoula record TABLE_ID --out FILE`` writes the server's signed record of a finished match
    and verifies it; an unknown table is refused (exit 1, one line)."""
    code, text = cli(
        ["demo", "--address", address, "--seats", "2", "--target", "0", "--record", str(tmp_path / "demo.jsonl")]
    )
    assert code == 0, text
    table_id = re.search(r"table (\S+) \(", text)
    assert table_id, text
    out = tmp_path / "fetched.jsonl"
    code, fetched = cli(["record", table_id.group(1), "--out", str(out), "--address", address])
    assert code == 0, fetched
    assert f"wrote {out}: agonia, 1 finished hand(s)" in fetched and "the whole match" in fetched
    assert "signed by the server's key" in fetched and "record verified" in fetched
    assert out.read_text(encoding="utf-8") == (tmp_path / "demo.jsonl").read_text(encoding="utf-8")
    assert cli(["record", "no-such-table", "--out", str(tmp_path / "x.jsonl"), "--address", address])[0] == 1


# --------------------------------------------------------------------------- 4. output


def test_tables_has_a_header_and_history_lists_players_by_seat(address: str, tmp_path: Path) -> None:
    """``tables`` starts with its column names; ``history`` lists each match's players in seat order
    with their total and the winner marked."""
    code, text = cli(
        ["demo", "--address", address, "--seats", "3", "--target", "0", "--record", str(tmp_path / "d.jsonl")]
    )
    assert code == 0, text
    table_id = re.search(r"table (\S+) \(", text).group(1)  # type: ignore[union-attr]
    code, text = cli(["tables", "--address", address])
    assert code == 0
    head, *rows = text.splitlines()
    assert head.split() == ["TABLE", "GAME", "STATUS", "SEATS", "FREE", "VERSION", "NOTE"]
    row = next(line for line in rows if line.startswith(table_id))
    assert row.split()[1:5] == ["agonia", "over", "3", "-"] and row.split()[5].isdigit()  # no note: dealt from seeds
    row = ""
    for _ in range(100):  # the read models follow the log shortly after (docs/read-models.md)
        row = next((line for line in cli(["history", "--address", address])[1].splitlines() if table_id in line), "")
        if row:
            break
        time.sleep(0.1)
    assert row
    players = [p.strip() for p in row.split("  ")[-1].split(", ")]
    names = [re.sub(r"( \(unverified\))?( \(\d+\))?( won)?$", "", p) for p in players]
    assert names == ["Anna", "Babis", "Chrysa"]  # the demo's players, in seat order
    assert sum(p.endswith(" won") for p in players) == 1


@pytest.mark.process
@pytest.mark.timeout(120)
def test_serve_says_each_start_up_line_once_in_a_terminal(tmp_path: Path) -> None:
    """In a terminal (standard output and error on it) the log's start-up lines are not repeated on
    standard output; piped, the ``trapoula serving on`` line is there for programs."""
    env = _env(TRAPOULA_SECRET="11" * 32)
    argv = [sys.executable, "-m", "trapoula.clients", "serve", "--address", "127.0.0.1:0", "--metrics-address", "off"]
    argv += ["--connect-address", "127.0.0.1:0", "--database-url", f"sqlite:///{tmp_path / 's.sqlite3'}"]
    term = Terminal(argv, env=env, cwd=tmp_path)
    try:
        term.read_until(r"Connect protocol on http://127\.0\.0\.1:\d+")
        time.sleep(0.5)
    finally:
        term.close()
    assert term.text.count("serving") == 1 and term.text.count("Connect protocol on") == 1, term.text
    assert "trapoula connect on" not in term.text
    proc = subprocess.Popen(argv, env=env, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().startswith("trapoula serving on 127.0.0.1:")
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)


# --------------------------------------------------------------------------- 5. replay


def test_replay_explains_positions_and_shows_the_move_that_led_to_one(tmp_path: Path) -> None:
    """The first line says what positions and seq numbers are; a position reached by a consequence
    (a turn passing on, a skip: agonia R5.4) shows the move that led to it."""
    path = tmp_path / "mine.jsonl"
    assert (
        cli(["play", "--seats", "2", "--target", "0", "--seed", SEED, "--record", str(path)], io.StringIO("1\n" * 300))[
            0
        ]
        == 0
    )
    code, listing = cli(["replay", str(path)])
    assert code == 0
    assert listing.startswith(
        "Positions: [N/M] is the match after its N-th game event, of M (0: before the first); "
        "seq S is that event's number in the record"
    )
    skipped = re.search(r"^\[(\d+)/\d+\] seq \d+: You are skipped by a 9$", listing, re.M)
    assert skipped
    code, shown = cli(["replay", str(path), "--at", skipped.group(1)])
    assert code == 0
    step, move = shown.splitlines()[1:3]
    assert step.endswith("You are skipped by a 9")
    assert re.fullmatch(
        rf"  after the move \[{int(skipped.group(1)) - 1}/\d+\] seq \d+: heuristic bot 1 plays 9[♣♦♥♠]", move
    ), move


@pytest.mark.process
def test_replay_in_a_terminal_steps_and_shows_the_move_before_a_position(tmp_path: Path) -> None:
    """In a terminal ``replay`` steps: ``n`` the next position, ``g N`` a given one, which shows the
    move that led to it when its event is a consequence (a skip by a 9, agonia R5.4), ``q`` quits."""
    path = tmp_path / "mine.jsonl"
    argv = ["play", "--seats", "2", "--target", "0", "--seed", SEED, "--record", str(path)]
    assert cli(argv, io.StringIO("1\n" * 300))[0] == 0
    skipped = re.search(r"^\[(\d+)/\d+\] seq \d+: You are skipped by a 9$", cli(["replay", str(path)])[1], re.M)
    assert skipped
    term = Terminal([*TRAPOULA, "replay", str(path)], env=_env(NO_COLOR="1"))
    try:
        term.read_until(r"Positions: \[N/M\] is the match after its N-th game event")
        term.read_until(r"\[0/\d+\] start of the match")
        term.read_until(r"\[n\]ext, \[p\]revious, \[g\] N, \[q\]uit: ")
        term.type("n")
        term.read_until(r"\[1/\d+\] seq \d+: Match of agonia: you, heuristic bot 1, a single hand")
        term.read_until(r"\[q\]uit: ")
        term.type(f"g {skipped.group(1)}")
        shown = rf"\[{skipped.group(1)}/\d+\] seq \d+: You are skipped by a 9\n"
        term.read_until(shown + r"  after the move \[\d+/\d+\] seq \d+: heuristic bot 1 plays 9")
        term.read_until(r"\[q\]uit: ")
        term.type("q")
        assert term.proc.wait(timeout=30) == 0
    finally:
        term.close()
