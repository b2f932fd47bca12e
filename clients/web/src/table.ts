/**
 * A table's page: the seats (names, card counts, totals, whose turn), the up-card or the trick and
 * what else the game shows, your hand as cards, your legal moves as buttons (a card of your hand
 * that may be played is a button too), the moves of the others as they happen, the hand's and
 * the match's results.  It works from the view the server sends and its `legal` list alone, so
 * every game is played the same way.  A spectator sees the spectator's view; a dropped connection
 * is opened again from the last version seen (nothing missed, nothing twice).
 */
import { isStale, myMove, type CommandJson, type TrapoulaClient, type Update, type ViewJson } from "@trapoula/client";
import { cardElement, isCard } from "./cards.js";
import { boardNodes, resultsNodes, seatsNodes, timeLeft, type Scene, type SeatInfo } from "./board.js";
import { commandNodes, commandText, eventNode } from "./describe.js";
import { anonymous, clientFor, playerName, remember, seatOf, setPlayerName, tableLink, transport } from "./session.js";
import { TrapoulaClient as Client } from "@trapoula/client";
import { fill, h, message, status } from "./ui.js";



/** Events shown in the log when the page opens (the ones before the view it opened at). */
const BACKLOG = 30;

/** More entries of one kind than this are chosen in a form (choiceForm), not one button each. */
const MANY = 12;

/** The cards a move names (`card`, or `cards`). */
function cardsOf(command: CommandJson): string[] {
  if (isCard(command.card)) return [command.card];
  return Array.isArray(command.cards) ? command.cards.filter(isCard) : [];
}

/** A move's field as a choice: its JSON text, or "" when the move has no such field (agonia's
 * ace played without naming a suit, R5.1.2, beside the aces that name one). */
function fieldText(command: CommandJson, key: string): string {
  const value = command[key];
  return value === undefined ? "" : JSON.stringify(value);
}

/** The fields in which `entries` differ. */
function varying(entries: CommandJson[]): string[] {
  const keys = [...new Set(entries.flatMap((e) => Object.keys(e)))];
  return keys.filter((k) => new Set(entries.map((e) => fieldText(e, k))).size > 1);
}

/** Entries that differ only in a few scalar fields (so a form of lists can choose among them). */
function choosable(entries: CommandJson[]): boolean {
  const keys = varying(entries);
  return keys.length > 0 && keys.length <= 3 && entries.every((e) => keys.every((k) => e[k] === null || typeof e[k] !== "object"));
}

/** A choice's words (`text`: a field's {@link fieldText}): a suit's sign and name, "none" for a
 * field the move lacks, else the value. */
function choiceText(text: string): string[] {
  if (text === "") return ["none"];
  const value = JSON.parse(text) as unknown;
  if (typeof value === "string" && value.length === 1 && "CDHS".includes(value)) {
    return [`${{ C: "♣ clubs", D: "♦ diamonds", H: "♥ hearts", S: "♠ spades" }[value]}`];
  }
  return [String(value)];
}

/** True when two views differ in nothing but their table part (`table`: seeds, seats, version). */
function sameGame(a: ViewJson, b: ViewJson): boolean {
  const game = (view: ViewJson) => JSON.stringify({ ...view, table: undefined });
  return game(a) === game(b);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function showTable(main: HTMLElement, tableId: string, invitationCode = ""): () => void {
  if (invitationCode) remember(tableId, { invitationCode });
  const page = new TablePage(main, tableId);
  void page.open();
  return () => page.close();
}

class TablePage {
  private client: TrapoulaClient;
  private version = -1;
  private view: ViewJson = {};
  private selected: string | undefined;
  private readonly logged = new Set<number>();
  private readonly abort = new AbortController();
  /** The watch stream's own controller: aborted to open it again (network back, a seat taken). */
  private stream: AbortController | undefined;
  private readonly header = h("div", { class: "table-head" });
  private readonly setup = h("div", { class: "setup" });
  private readonly seats = h("section", { class: "seats-area", "aria-labelledby": "seats-title" });
  private readonly board = h("section", { class: "board", "aria-labelledby": "board-title" });
  private readonly hand = h("section", { class: "hand-area", "aria-labelledby": "hand-title" });
  private readonly moves = h("section", { class: "moves", "aria-labelledby": "moves-title" });
  private readonly results = h("section", { class: "results", "aria-live": "polite" });
  private readonly log = h("ol", { class: "log", "aria-live": "polite", "aria-relevant": "additions", id: "log" });
  private readonly turn = h("p", { class: "turn", role: "status", "aria-live": "polite", id: "turn" });

  constructor(
    private readonly main: HTMLElement,
    private readonly tableId: string,
  ) {
    this.client = clientFor(tableId);
  }

  /** Ticks the turn clocks shown (every `[data-deadline]`) once a second. */
  private readonly ticker = window.setInterval(() => {
    for (const el of this.main.querySelectorAll<HTMLElement>("[data-deadline]")) el.textContent = `time: ${timeLeft(el.dataset.deadline!)}`;
  }, 1000);

  close(): void {
    this.abort.abort();
    window.clearInterval(this.ticker);
    window.removeEventListener("offline", this.onOffline);
    window.removeEventListener("online", this.onOnline);
  }

  /** The computer players' levels of this table's game (ListGames). */
  private levels: string[] = ["heuristic", "random"];

  async open(): Promise<void> {
    this.main.replaceChildren(
      this.header,
      this.turn,
      this.setup,
      this.seats,
      this.board,
      this.hand,
      this.moves,
      this.results,
      h("section", { class: "log-area", "aria-labelledby": "log-title" }, h("h2", { id: "log-title", text: "What happened" }), this.log),
    );
    this.main.dataset.table = this.tableId;
    window.addEventListener("offline", this.onOffline);
    window.addEventListener("online", this.onOnline);
    let first: Awaited<ReturnType<TrapoulaClient["view"]>>;
    try {
      first = await this.client.view(this.tableId);
      const game = (await anonymous.service.listGames({})).games.find((g) => g.key === first.view.game);
      if (game?.botLevels.length) this.levels = [...game.botLevels].sort((a, b) => Number(b === "heuristic") - Number(a === "heuristic"));
    } catch (err) {
      this.main.replaceChildren(h("h1", { text: "Table" }), h("p", { role: "alert", text: `No such table: ${message(err)}` }));
      return;
    }
    this.apply(first); // a failure to show it is the page's own (a page error), not "no such table"
    await this.follow();
  }

  /** Watch the table from the last version seen; after a break, look again and watch again. */
  private async follow(): Promise<void> {
    const page = this.abort.signal;
    for (;;) {
      const stream = new AbortController();
      this.stream = stream;
      const stop = () => stream.abort();
      page.addEventListener("abort", stop, { once: true });
      try {
        // from a few events back, so that the log shows what happened just before
        const from = this.logged.size === 0 ? Math.max(this.version - BACKLOG, 0) : Math.max(this.version, 0);
        // batched: a save's events come in one message, with the view after the last only
        const waiting: Update[] = [];
        for await (const update of this.client.watch(this.tableId, from, stream.signal, { batch: true })) {
          if (navigator.onLine) status("");
          waiting.push(update);
          if (Object.keys(update.view).length === 0) continue; // more of this message follows
          for (const each of waiting) this.note(each, update.view);
          waiting.length = 0;
          this.apply(update);
        }
        return; // the match is over
      } catch (err) {
        if (page.aborted) return;
        if (!stream.signal.aborted) {
          // the stream broke (beyond the client's own retries): say so, wait, look again
          console.warn("watch", err);
          status(`Connection lost (${message(err)}); reconnecting…`);
          await sleep(2000);
        }
        if (page.aborted) return;
        try {
          this.apply(await this.client.view(this.tableId));
          if (navigator.onLine) status("");
        } catch {
          // still away: try again
        }
      } finally {
        page.removeEventListener("abort", stop);
      }
    }
  }

  /** The browser lost its network: say so (the stream may hang rather than fail). */
  private readonly onOffline = (): void => status("Connection lost; reconnecting when the network is back…");

  /** The network is back: open the stream again from the last version seen. */
  private readonly onOnline = (): void => {
    status("Back online: catching up…");
    this.stream?.abort();
  };

  /** Log `update`'s event, naming the seats as `view` (the view after its message) does. */
  private note(update: Update, view: ViewJson): void {
    if (!update.event || this.logged.has(update.version)) return;
    this.logged.add(update.version);
    const line = eventNode(update.event.name, update.event.payload, this.names(view));
    if (!line) return;
    line.dataset.version = String(update.version);
    line.dataset.event = update.event.name;
    this.log.prepend(line);
    while (this.log.children.length > 60) this.log.lastElementChild?.remove();
  }

  private apply(update: { version: number; view: ViewJson }): void {
    // a closed page (another route took `main`) writes nothing more, whatever answers still arrive
    if (this.abort.signal.aborted || update.version < this.version) return;
    this.version = update.version;
    this.view = update.view;
    this.render();
  }

  private names(view: ViewJson = this.view): string[] {
    const names = Array.isArray(view.names) ? (view.names as string[]) : [];
    return this.seatList(view).map((seat, i) => names[i] || seat.name || `seat ${i + 1}`);
  }

  private seatList(view: ViewJson = this.view): SeatInfo[] {
    const seats = (view.table?.seats ?? []) as Record<string, unknown>[];
    return seats.map((s) => ({ name: String(s.name ?? ""), bot: Boolean(s.bot), free: Boolean(s.free) }));
  }

  private render(): void {
    const focused = (document.activeElement as HTMLElement | null)?.dataset?.key;
    const view = this.view;
    const table = view.table ?? {};
    const mine = typeof view.seat === "number" ? view.seat : undefined;
    this.main.dataset.status = String(table.status ?? "");
    this.main.dataset.version = String(this.version);
    this.main.dataset.myTurn = String(myMove(view));
    this.main.dataset.seat = mine === undefined ? "" : String(mine);
    this.renderHeader(mine);
    this.renderSetup();
    const scene: Scene = { view, names: this.names(), seats: this.seatList(), acting: this.acting(), mine };
    fill(this.seats, ...seatsNodes(scene));
    fill(this.board, ...boardNodes(scene));
    this.renderHand(mine);
    this.renderMoves();
    fill(this.results, ...resultsNodes(scene));
    if (focused) {
      const again = this.main.querySelector<HTMLElement>(`[data-key="${CSS.escape(focused)}"]`);
      again?.focus();
    }
  }

  private renderHeader(mine: number | undefined): void {
    const view = this.view;
    const table = view.table ?? {};
    const game = String(view.game ?? "");
    const link = tableLink(this.tableId, seatOf(this.tableId).invitationCode);
    const copy = h("button", { type: "button", class: "small", text: "Copy the link", "data-key": "copy" });
    copy.addEventListener("click", () => {
      void navigator.clipboard?.writeText(link).then(() => status("Link copied."), () => status(link));
    });
    const who =
      mine !== undefined ? `You are ${this.names()[mine]} (seat ${mine + 1}).` : "You are watching as a spectator.";
    const hand = typeof view.hand_no === "number" && view.hand_no > 0 ? `, hand ${view.hand_no}` : "";
    this.header.replaceChildren(
      h("h1", { text: `${game || "Table"}` }),
      h("p", { class: "meta" }, `Table ${this.tableId}: ${String(table.status ?? "")}${hand}. ${who} `),
      h("p", { class: "share" }, "Share: ", h("a", { href: link, text: link, class: "link" }), " ", copy),
    );
    const turnText = this.turnText(mine);
    if (this.turn.textContent !== turnText) this.turn.textContent = turnText;
  }

  private turnText(mine: number | undefined): string {
    const view = this.view;
    const status = view.table?.status;
    if (status === "over") return "The match is over.";
    if (status === "open" || status === "ready") return "The match has not started.";
    const acting = this.acting();
    if (mine !== undefined && myMove(view)) return acting.length > 1 ? "Your move (everyone moves at once)." : "Your move.";
    if (acting.length === 0) return "";
    const names = this.names();
    return `Waiting for ${acting.map((s) => names[s]).join(", ")}.`;
  }

  private acting(): number[] {
    const view = this.view;
    if (Array.isArray(view.acting)) return view.acting;
    return typeof view.to_act === "number" ? [view.to_act] : [];
  }

  /** Take a seat (a free one, before the match), add computer players and start (the owner). */
  private renderSetup(): void {
    const view = this.view;
    const table = view.table ?? {};
    const seats = this.seatList();
    const held = seatOf(this.tableId);
    const parts: Node[] = [];
    const free = seats.map((s, i) => (s.free ? i : -1)).filter((i) => i >= 0);
    if (!held.seatToken && free.length > 0 && table.status === "open") {
      const name = h("input", { id: "join-name", value: playerName(), required: true, maxlength: 40, "data-key": "join-name" });
      const join = h("button", { type: "button", id: "join", text: "Take a seat", "data-key": "join" });
      const error = h("span", { class: "error", role: "alert" });
      join.addEventListener("click", () => {
        void (async () => {
          const who = name.value.trim();
          if (!who) return name.focus();
          setPlayerName(who);
          try {
            const client = new Client(transport);
            const joined = await client.join(this.tableId, who, undefined, held.invitationCode ?? "");
            remember(this.tableId, { seat: joined.seat, seatToken: joined.seatToken, name: who });
            this.client = clientFor(this.tableId);
            this.apply(await this.client.view(this.tableId));
            this.restart();
          } catch (err) {
            error.textContent = ` ${message(err)}`;
          }
        })();
      });
      parts.push(h("p", { class: "field" }, h("label", { for: "join-name", text: "Your name " }), name, " ", join, error));
    }
    if (held.ownerToken && (table.status === "open" || table.status === "ready")) {
      if (free.length > 0) {
        const level = h("select", { id: "bot-level", "data-key": "bot-level" });
        for (const l of this.levels) level.append(h("option", { value: l, text: l }));
        const add = h("button", { type: "button", id: "add-bot", text: "Add a computer player", "data-key": "add-bot" });
        add.addEventListener("click", () => void this.owner(() => this.client.addBot(this.tableId, level.value, undefined, "", held.ownerToken)));
        parts.push(h("p", { class: "field" }, h("label", { for: "bot-level", text: "Computer level " }), level, " ", add));
      } else {
        const start = h("button", { type: "button", id: "start", text: "Start the match", "data-key": "start" });
        start.addEventListener("click", () => void this.owner(() => this.client.startMatch(this.tableId, held.ownerToken)));
        parts.push(h("p", {}, start));
      }
      parts.push(h("p", { class: "help", text: "Share the link above with the people you want at this table." }));
    }
    this.setup.replaceChildren(...parts);
  }

  private async owner(call: () => Promise<unknown>): Promise<void> {
    try {
      await call();
      this.apply(await this.client.view(this.tableId));
    } catch (err) {
      status(message(err));
    }
  }

  /** After taking a seat: watch again with the seat's token. */
  private restart(): void {
    this.stream?.abort();
  }

  private renderHand(mine: number | undefined): void {
    if (mine === undefined || !Array.isArray(this.view.hand)) {
      this.hand.replaceChildren();
      return;
    }
    const legal = this.view.legal ?? [];
    const playable = new Set(legal.flatMap(cardsOf));
    const row = h("div", { class: "hand", id: "hand", role: "group", "aria-label": "Your cards" });
    for (const card of this.view.hand as string[]) {
      const button = cardElement(card, "button") as HTMLButtonElement;
      button.type = "button";
      button.dataset.key = `card-${card}`;
      if (playable.has(card)) button.classList.add("legal");
      else button.setAttribute("aria-disabled", "true");
      if (this.selected === card) button.setAttribute("aria-pressed", "true");
      button.addEventListener("click", () => this.pick(card));
      row.append(button);
    }
    this.hand.replaceChildren(h("h2", { id: "hand-title", text: `Your hand (${(this.view.hand as string[]).length} cards)` }), row);
  }

  /** A card of the hand clicked: its only move is played; with several (a suit to name, an
   * announcement), the moves show only that card's, to choose from. */
  private pick(card: string): void {
    const entries = (this.view.legal ?? []).filter((c) => cardsOf(c).includes(card));
    if (entries.length === 1) void this.act(entries[0]!);
    else if (entries.length > 1) {
      this.selected = card;
      this.render();
      this.moves.querySelector<HTMLElement>("button.move")?.focus();
    }
  }

  private renderMoves(): void {
    const view = this.view;
    let legal = view.legal ?? [];
    if (!myMove(view) || legal.length === 0) {
      this.selected = undefined;
      this.moves.replaceChildren();
      return;
    }
    const selected = this.selected;
    if (selected && legal.some((c) => cardsOf(c).includes(selected))) legal = legal.filter((c) => cardsOf(c).includes(selected));
    else this.selected = undefined;
    const list = h("div", { class: "move-list", id: "moves" });
    // a kind with many entries alike (vida's bids: points and suit) is one form of choices
    const byKind = new Map<string, CommandJson[]>();
    for (const command of legal) byKind.set(command.kind, [...(byKind.get(command.kind) ?? []), command]);
    const forms = new Set([...byKind].filter(([, entries]) => entries.length > MANY && choosable(entries)).map(([kind]) => kind));
    for (const kind of forms) list.append(this.choiceForm(kind, byKind.get(kind)!));
    legal.filter((c) => !forms.has(c.kind)).forEach((command) => {
      const key = `move-${JSON.stringify(command)}`;
      const button = h("button", { type: "button", class: "move", "data-kind": command.kind, "data-key": key, "aria-label": commandText(command) });
      if (isCard(command.card)) button.dataset.card = command.card;
      button.append(...commandNodes(command));
      button.addEventListener("click", () => void this.act(command));
      list.append(button);
    });
    const back = this.selected ? h("button", { type: "button", class: "small", text: "Other moves", "data-key": "back" }) : null;
    back?.addEventListener("click", () => {
      this.selected = undefined;
      this.render();
    });
    fill(this.moves, h("h2", { id: "moves-title", text: "Your moves" }), list, back);
  }

  /** One form for many moves of a kind that differ by a few fields: a list of choices per field,
   * each offering only the values some legal move has given the ones chosen before it. */
  private choiceForm(kind: string, entries: CommandJson[]): HTMLElement {
    const keys = varying(entries);
    const form = h("form", { class: "choice", "data-kind": kind, "aria-label": commandText({ kind }) });
    const selects = keys.map((key) => h("select", { id: `choice-${kind}-${key}`, "data-key": `choice-${kind}-${key}`, "data-field": key }));
    const submit = h("button", { type: "submit", class: "move", "data-kind": kind, "data-key": `choice-${kind}` });
    const matching = () => entries.filter((e) => selects.every((sel) => fieldText(e, sel.dataset.field!) === sel.value));
    const refill = (from: number) => {
      for (let i = from; i < selects.length; i++) {
        const select = selects[i]!;
        const before = select.value;
        const fits = entries.filter((e) => selects.slice(0, i).every((sel) => fieldText(e, sel.dataset.field!) === sel.value));
        const values = [...new Set(fits.map((e) => fieldText(e, keys[i]!)))];
        select.replaceChildren(...values.map((v) => h("option", { value: v }, ...choiceText(v))));
        if (values.includes(before)) select.value = before;
      }
      const [chosen] = matching();
      submit.replaceChildren(...(chosen ? commandNodes(chosen) : [document.createTextNode(commandText({ kind }))]));
      submit.setAttribute("aria-label", chosen ? commandText(chosen) : commandText({ kind }));
    };
    selects.forEach((select, i) => select.addEventListener("change", () => refill(i + 1)));
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const [chosen] = matching();
      if (chosen) void this.act(chosen);
    });
    form.append(
      ...selects.map((select, i) => h("label", { for: select.id, class: "field" }, `${keys[i]!.replaceAll("_", " ")} `, select)),
      submit,
    );
    refill(0);
    return form;
  }

  private busy = false;

  private async act(command: CommandJson): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    this.main.setAttribute("aria-busy", "true");
    this.selected = undefined;
    try {
      for (let attempt = 0; ; attempt++) {
        const chosenFrom = this.view;
        try {
          this.apply(await this.client.act(this.tableId, command, { viewVersion: this.version }));
          status("");
          return;
        } catch (err) {
          if (!isStale(err)) {
            status(`Refused: ${message(err)}`);
            this.apply(await this.client.view(this.tableId));
            return;
          }
          // Only the table's part moved (a seed given, a seat taken): the game is as it was
          // when the move was chosen, so send it again; else choose again from the new view.
          const fresh = await this.client.view(this.tableId);
          this.apply(fresh);
          if (attempt > 2 || !sameGame(chosenFrom, fresh.view)) {
            status("The table moved on: choose again.");
            return;
          }
        }
      }
    } catch (err) {
      status(message(err));
    } finally {
      this.busy = false;
      this.main.removeAttribute("aria-busy");
    }
  }
}
