/**
 * The replay viewer: a record (a file dropped or chosen, or a finished match of the history)
 * replayed by this server's rules (the ReplayRecord call: nothing goes anywhere else), stepped
 * forward and back, jumped to a hand or an event, seen through any seat's eyes or a spectator's,
 * with the audit's report (trapoula verify's).
 */
import type { ReplayRecordResponse } from "@trapoula/client";
import type { ViewJson } from "@trapoula/client";
import { cardsElement } from "./cards.js";
import { boardNodes, resultsNodes, seatsNodes } from "./board.js";
import { eventNode } from "./describe.js";
import { anonymous } from "./session.js";
import { fill, h, message } from "./ui.js";

export function showReplay(main: HTMLElement, tableId?: string): () => void {
  const page = new ReplayPage(main);
  page.open(tableId);
  return () => page.close();
}

class ReplayPage {
  private record = "";
  private answer: ReplayRecordResponse | undefined;
  private seat: number | undefined;
  private position = 0;
  private view: ViewJson = {};
  private closed = false;
  private readonly source = h("section", { class: "source", "aria-labelledby": "replay-title" });
  private readonly controls = h("section", { class: "controls", "aria-label": "Step through the match" });
  private readonly where = h("p", { class: "where", id: "replay-where", role: "status", "aria-live": "polite" });
  private readonly seats = h("section", { class: "seats-area" });
  private readonly board = h("section", { class: "board" });
  private readonly hand = h("section", { class: "hand-area", "aria-labelledby": "replay-hand-title" });
  private readonly results = h("section", { class: "results" });
  private readonly report = h("section", { class: "report", "aria-labelledby": "report-title" });

  constructor(private readonly main: HTMLElement) {}

  close(): void {
    this.closed = true;
    document.removeEventListener("keydown", this.onKey);
  }

  open(tableId?: string): void {
    this.main.dataset.table = "";
    this.main.dataset.position = "";
    this.main.replaceChildren(
      this.source,
      this.controls,
      this.where,
      this.seats,
      this.board,
      this.hand,
      this.results,
      this.report,
    );
    this.drawSource();
    document.addEventListener("keydown", this.onKey);
    if (tableId) void this.fromHistory(tableId);
  }

  private drawSource(): void {
    const input = h("input", { type: "file", id: "record-file", accept: ".jsonl,.json,.txt,application/jsonl,text/plain" });
    input.addEventListener("change", () => {
      const file = input.files?.[0];
      if (file) void this.fromFile(file);
    });
    const drop = h(
      "div",
      { class: "drop", id: "drop" },
      h("p", {}, "Drop a record file (JSON Lines, from ", h("code", { text: "GetRecord" }), " or ", h("code", { text: "trapoula demo --record" }), ") here, or choose one: "),
      h("p", {}, h("label", { for: "record-file", text: "Record file " }), input),
    );
    drop.addEventListener("dragover", (ev) => {
      ev.preventDefault();
      drop.classList.add("over");
    });
    drop.addEventListener("dragleave", () => drop.classList.remove("over"));
    drop.addEventListener("drop", (ev) => {
      ev.preventDefault();
      drop.classList.remove("over");
      const file = ev.dataTransfer?.files[0];
      if (file) void this.fromFile(file);
    });
    fill(
      this.source,
      h("h1", { id: "replay-title", text: "Replay a match" }),
      h("p", { class: "help", text: "The record is replayed by this server's rules and checked as trapoula verify checks it; it goes nowhere else." }),
      drop,
      h("p", { class: "error", role: "alert", id: "replay-error" }),
    );
  }

  private error(text: string): void {
    const el = document.getElementById("replay-error");
    if (el) el.textContent = text;
  }

  private async fromFile(file: File): Promise<void> {
    await this.load(await file.text());
  }

  private async fromHistory(tableId: string): Promise<void> {
    try {
      const { jsonl } = await anonymous.service.getRecord({ tableId });
      await this.load(jsonl);
    } catch (err) {
      this.error(`No record of table ${tableId}: ${message(err)}`);
    }
  }

  private async load(text: string): Promise<void> {
    this.error("");
    try {
      this.record = text;
      this.seat = undefined;
      this.answer = await anonymous.service.replayRecord({ jsonl: text, positions: [0] });
      this.position = 0;
      this.view = JSON.parse(this.answer.positions[0]?.viewJson ?? "{}") as ViewJson;
      this.main.dataset.table = this.answer.tableId;
      this.drawControls();
      this.drawReport();
      this.render();
    } catch (err) {
      this.error(`This is not a record that can be replayed: ${message(err)}`);
    }
  }

  /** Go to `position` (0..N) and show it. */
  private async go(position: number): Promise<void> {
    const answer = this.answer;
    if (!answer) return;
    const last = answer.steps.length;
    const target = Math.max(0, Math.min(last, position));
    try {
      const reply = await anonymous.service.replayRecord({ jsonl: this.record, seat: this.seat, positions: [target] });
      if (this.closed) return;
      this.answer = { ...answer, steps: reply.steps };
      this.position = target;
      this.view = JSON.parse(reply.positions[0]?.viewJson ?? "{}") as ViewJson;
      this.render();
    } catch (err) {
      this.error(message(err));
    }
  }

  /** The next (or previous) position the viewer saw: a seat steps over what was withheld from it. */
  private neighbour(direction: 1 | -1): number {
    const steps = this.answer?.steps ?? [];
    let p = this.position + direction;
    while (p > 0 && p <= steps.length && steps[p - 1]?.seen === false) p += direction;
    return Math.max(0, Math.min(steps.length, p));
  }

  private readonly onKey = (ev: KeyboardEvent): void => {
    if (!this.answer || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const target = ev.target as HTMLElement | null;
    if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) return;
    if (ev.key === "ArrowRight") void this.go(this.neighbour(1));
    else if (ev.key === "ArrowLeft") void this.go(this.neighbour(-1));
    else if (ev.key === "Home") void this.go(0);
    else if (ev.key === "End") void this.go(this.answer.steps.length);
    else return;
    ev.preventDefault();
  };

  private drawControls(): void {
    const answer = this.answer!;
    const last = answer.steps.length;
    const eyes = h("select", { id: "replay-seat" });
    eyes.append(h("option", { value: "", text: "a spectator" }));
    answer.names.forEach((name, seat) => eyes.append(h("option", { value: String(seat), text: `${name} (seat ${seat + 1})` })));
    eyes.addEventListener("change", () => {
      this.seat = eyes.value === "" ? undefined : Number(eyes.value);
      void this.go(this.position);
    });
    const hands = h("select", { id: "replay-hand" });
    const firsts = new Map<number, number>();
    for (const step of answer.steps) if (step.hand > 0 && !firsts.has(step.hand)) firsts.set(step.hand, step.position);
    hands.append(h("option", { value: "", text: "—" }));
    for (const [hand, position] of firsts) hands.append(h("option", { value: String(position), text: `hand ${hand}` }));
    hands.addEventListener("change", () => {
      if (hands.value) void this.go(Number(hands.value));
    });
    const at = h("input", { id: "replay-position", type: "number", min: 0, max: last, value: "0" });
    const goTo = h("button", { type: "button", id: "replay-go", text: "Go" });
    goTo.addEventListener("click", () => void this.go(Number(at.value)));
    at.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter") void this.go(Number(at.value));
    });
    const button = (id: string, text: string, label: string, to: () => number) => {
      const b = h("button", { type: "button", id, text, "aria-label": label });
      b.addEventListener("click", () => void this.go(to()));
      return b;
    };
    fill(
      this.controls,
      h("p", { class: "meta" }, `${answer.game}: table ${answer.tableId}, ${last} events. `),
      h(
        "p",
        { class: "field" },
        button("replay-first", "|◀ First", "First position", () => 0),
        button("replay-back", "◀ Back", "Back one event", () => this.neighbour(-1)),
        button("replay-forward", "Forward ▶", "Forward one event", () => this.neighbour(1)),
        button("replay-last", "Last ▶|", "Last position", () => last),
      ),
      h(
        "p",
        { class: "field" },
        h("label", { for: "replay-seat", text: "Through the eyes of " }),
        eyes,
        h("label", { for: "replay-hand", text: " Jump to " }),
        hands,
        h("label", { for: "replay-position", text: " Event " }),
        at,
        goTo,
      ),
      h("p", { class: "help", text: "Keys: ← and → step, Home and End jump to the ends." }),
    );
  }

  private drawReport(): void {
    const answer = this.answer!;
    fill(
      this.report,
      h("h2", { id: "report-title", text: "Verification" }),
      h("p", { id: "verdict", class: answer.verified ? "ok" : "error", "data-verified": String(answer.verified) },
        answer.verified ? "✓ The record verifies: every hash, seed and move checked." : "✗ The record does not verify."),
      answer.stopped ? h("p", { class: "error", text: answer.stopped }) : null,
      h("details", {}, h("summary", { text: "The audit's report" }), h("pre", { id: "report", text: answer.report })),
    );
  }

  private render(): void {
    const answer = this.answer!;
    const view = this.view;
    const names = answer.names;
    const at = document.getElementById("replay-position") as HTMLInputElement | null;
    if (at) at.value = String(this.position);
    this.main.dataset.position = String(this.position);
    this.main.dataset.seat = this.seat === undefined ? "" : String(this.seat);
    const step = this.position > 0 ? answer.steps[this.position - 1] : undefined;
    const line = step ? eventNode(step.name, JSON.parse(step.payloadJson || "{}") as Record<string, unknown>, names) : null;
    const hand = step?.hand ? `, hand ${step.hand}` : "";
    fill(
      this.where,
      `Position ${this.position} of ${answer.steps.length}${hand}: `,
      step ? (step.seen ? (line?.firstChild ? h("span", {}, ...Array.from(line.childNodes)) : step.name) : `${step.name} (not seen by this seat)`) : "before the first event",
    );
    const acting = typeof view.to_act === "number" ? [view.to_act] : Array.isArray(view.waiting) ? (view.waiting as number[]) : [];
    const scene = { view, names, seats: names.map((name) => ({ name, bot: false, free: false })), acting, mine: this.seat, me: "these eyes" };
    fill(this.seats, ...seatsNodes(scene));
    fill(this.board, ...boardNodes(scene));
    const cards = Array.isArray(view.hand) ? (view.hand as string[]) : undefined;
    fill(
      this.hand,
      ...(this.seat !== undefined && cards
        ? [h("h2", { id: "replay-hand-title", text: `${names[this.seat]}'s hand (${cards.length} cards)` }), h("div", { id: "replay-cards", class: "hand" }, cardsElement(cards, `${names[this.seat]}'s cards`))]
        : []),
    );
    fill(this.results, ...resultsNodes(scene));
  }
}
