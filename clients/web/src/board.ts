/** The parts of a table shown alike live and in a replay: the seats, the middle, the results. */
import type { ViewJson } from "@trapoula/client";
import { cardElement, cardsElement, isCard } from "./cards.js";
import { valueNodes } from "./describe.js";
import { h } from "./ui.js";

export interface SeatInfo {
  name: string;
  bot: boolean;
  free: boolean;
}

/** A view with what it is shown with: the seats' names and kinds, who acts, whose eyes. */
export interface Scene {
  view: ViewJson;
  names: string[];
  seats: SeatInfo[];
  acting: number[];
  mine?: number;
  /** How the viewer's own seat is marked ("you"). */
  me?: string;
}

/** "23 s left" until an RFC 3339 deadline (a turn clock, docs/clock.md). */
export function timeLeft(deadline: string, now = Date.now()): string {
  const seconds = Math.max(0, Math.ceil((Date.parse(deadline) - now) / 1000));
  return seconds >= 120 ? `${Math.floor(seconds / 60)} min ${seconds % 60} s left` : `${seconds} s left`;
}

/** A seat's turn clock: its deadline ticking (TablePage updates every `[data-deadline]`). */
function clockFact(deadline: string): HTMLElement {
  return h("span", { class: "fact clock", role: "timer", "data-deadline": deadline, text: `time: ${timeLeft(deadline)}` });
}

/** Keys of a view shown in their own places (the rest go under "More of the table"). */
export const SHOWN = new Set([
  "legal", "acting", "table", "names", "hand", "hand_sizes", "totals", "seat", "game", "options", "commitment",
  "commitments", "explicit_deal", "last_hand", "discard", "top_card", "active_suit", "to_act", "phase", "hand_no",
  "trick", "trump", "revealed", "match_winner", "winner", "match_over", "hand_over", "stock_count", "pending_draw",
  "submitted", "eliminated", "waiting", "live", "contract", "discard_top",
]);

/** The seats: names, card counts, totals (a team's under the seats), whose turn, sealed moves, revealed cards. */
export function seatsNodes(scene: Scene): Node[] {
  const mine = scene.mine;
  const view = scene.view;
  const names = scene.names;
  const seats = scene.seats;
  const sizes = Array.isArray(view.hand_sizes) ? (view.hand_sizes as number[]) : [];
  const totals = Array.isArray(view.totals) ? (view.totals as number[]) : [];
  const perSeat = totals.length === seats.length;
  const acting = new Set(scene.acting);
  const revealed = Array.isArray(view.revealed) ? (view.revealed as string[][]) : [];
  const submitted = new Set(Array.isArray(view.submitted) ? (view.submitted as number[]) : []);
  const out = new Set(Array.isArray(view.eliminated) ? (view.eliminated as number[]) : []);
  const clock = (view.table?.clock ?? null) as { deadlines?: { seat: number; deadline: string }[]; banks?: number[]; bank_seconds?: number } | null;
  const deadlines = new Map((clock?.deadlines ?? []).map((d) => [d.seat, d.deadline]));
  const list = h("ol", { class: "seats" });
  seats.forEach((seat, i) => {
    const facts: Node[] = [];
    if (seat.free) facts.push(h("span", { class: "fact", text: "open seat" }));
    if (sizes[i] !== undefined) facts.push(h("span", { class: "fact", "data-cards": sizes[i], text: `${sizes[i]} cards` }));
    if (perSeat) facts.push(h("span", { class: "fact", "data-total": totals[i], text: `total ${totals[i]}` }));
    if (submitted.has(i)) facts.push(h("span", { class: "fact sealed", "data-sealed": "true", text: "moved (sealed)" }));
    if (out.has(i)) facts.push(h("span", { class: "fact", text: "out of the hand" }));
    const deadline = deadlines.get(i);
    if (deadline) facts.push(clockFact(deadline));
    if (clock?.bank_seconds && clock.banks?.[i] !== undefined) facts.push(h("span", { class: "fact", text: `bank ${Math.round(clock.banks[i]!)} s` }));
    const classes = ["seat", acting.has(i) ? "acting" : "", i === mine ? "you" : ""].filter(Boolean).join(" ");
    list.append(
      h("li", { class: classes, "data-seat": i, "aria-current": acting.has(i) ? "true" : undefined },
        h("span", { class: "name" }, names[i] ?? "", seat.bot ? " (computer)" : "", i === mine ? ` (${scene.me ?? "you"})` : ""),
        acting.has(i) ? h("span", { class: "to-play", text: " to play" }) : null,
        " ",
        ...facts,
        revealed[i]?.length ? h("span", { class: "revealed" }, " revealed ", cardsElement(revealed[i]!, `${names[i]}'s revealed cards`)) : null,
      ),
    );
  });
  const teams = !perSeat && totals.length > 0
    ? h("p", { class: "teams" }, ...totals.map((t, team) => h("span", { class: "fact", "data-team-total": t, text: `team of seats ${seats.map((_, i) => i).filter((i) => i % totals.length === team).map((i) => i + 1).join(" & ")}: ${t}` })))
    : null;
  return [h("h2", { id: "seats-title", text: "Seats" }), list, ...(teams ? [teams] : [])];
}


/** The table's middle: the up-card or the trick, trumps, the contract, the stock; the rest of the view folded. */
export function boardNodes(scene: Scene): Node[] {
  const view = scene.view;
  const names = scene.names;
  const items: Node[] = [];
  const item = (label: string, ...value: Node[]) => items.push(h("dt", { text: label }), h("dd", {}, ...value));
  if (isCard(view.top_card)) item("Up-card", h("span", { id: "up-card" }, cardElement(view.top_card)));
  if (isCard(view.discard_top)) item("Discard pile", h("span", { id: "discard-top" }, cardElement(view.discard_top)));
  if (typeof view.active_suit === "string") item("Suit to follow", ...valueNodes(view.active_suit));
  if (typeof view.pending_draw === "number" && view.pending_draw > 0) item("Cards to draw", h("span", { text: String(view.pending_draw) }));
  if (typeof view.trump === "string") item("Trumps", ...valueNodes(view.trump));
  if (view.contract && typeof view.contract === "object") item("Contract", h("span", { id: "contract" }, ...valueNodes(named(scene.names, view.contract))));
  if (Array.isArray(view.trick) && view.trick.length > 0) {
    const trick = h("ul", { class: "trick", id: "trick" });
    for (const play of view.trick as { seat?: number; card?: string }[]) {
      if (isCard(play.card)) trick.append(h("li", {}, `${names[play.seat ?? -1] ?? ""} `, cardElement(play.card)));
    }
    item("Trick", trick);
  }
  if (typeof view.stock_count === "number") item("Stock", h("span", { text: `${view.stock_count} cards` }));
  const more = h("dl", { class: "more" });
  for (const [key, value] of Object.entries(view)) {
    if (SHOWN.has(key) || value === null || value === undefined) continue;
    if (Array.isArray(value) && value.length === 0) continue;
    more.append(h("dt", { text: key.replaceAll("_", " ") }), h("dd", {}, ...valueNodes(value)));
  }
  const out: Node[] = [h("h2", { id: "board-title", text: "On the table" })];
  if (items.length) out.push(h("dl", { class: "centre" }, ...items));
  if (more.children.length) out.push(h("details", {}, h("summary", { text: "More of the table" }), more));
  return out;
}


/** An object with its seat numbers (`seat`, `bidder`, `team` stays) replaced by names. */
export function named(names: string[], value: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = (key === "seat" || key === "bidder" || key === "player" || key === "holder") && typeof item === "number" ? (names[item] ?? item) : item;
  }
  return out;
}


/** The last hand's result (points, cards left), and the match's when it is over. */
export function resultsNodes(scene: Scene): Node[] {
  const view = scene.view;
  const names = scene.names;
  const parts: Node[] = [];
  const last = view.last_hand as { hand_points?: (number | null)[]; hands?: string[][]; reason?: string; winner?: number | null } | undefined;
  if (last && typeof last === "object") {
    const rows = (last.hand_points ?? []).map((points, i) =>
      h("tr", { "data-seat": i },
        h("th", { scope: "row", text: names[i] ?? `seat ${i + 1}` }),
        h("td", { "data-points": points ?? "", text: points === null ? "—" : String(points) }),
        h("td", {}, cardsElement(last.hands?.[i] ?? [], `${names[i]}'s cards left`)),
      ),
    );
    const winner = typeof last.winner === "number" ? `${names[last.winner]} went out` : "nobody went out";
    parts.push(
      h("h2", { id: "last-hand", text: "Last hand" }),
      h("p", { text: `${winner}${last.reason ? ` (${last.reason.replaceAll("_", " ")})` : ""}.` }),
      h("table", { class: "points", id: "last-hand-points" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col", text: "Player" }), h("th", { scope: "col", text: "Points" }), h("th", { scope: "col", text: "Cards left" }))),
        h("tbody", {}, ...rows),
      ),
    );
  }
  if (view.table?.status === "over") {
    const winner = typeof view.match_winner === "number" ? view.match_winner : typeof view.winner === "number" ? view.winner : undefined;
    const totals = Array.isArray(view.totals) ? (view.totals as number[]) : [];
    parts.push(
      h("h2", { id: "match-over", text: "The match is over" }),
      h("p", { id: "match-winner", text: winner === undefined ? "" : `Winner: ${totals.length === names.length ? names[winner] : `team ${winner + 1}`}.` }),
      h("p", {}, h("a", { href: "#/", text: "Back to the lobby" })),
    );
  }
  return parts;
}
