/** Words for commands and events, with cards and suits as elements (shown and read aloud). */
import type { CommandJson } from "@trapoula/client";
import { cardElement, cardsElement, isCard, isSuit, suitElement } from "./cards.js";
import { h } from "./ui.js";

const VERBS: Record<string, string> = {
  play: "Play",
  draw: "Draw",
  pass: "Pass",
  choose_suit: "Choose",
  next_hand: "Deal the next hand",
  bid: "Bid",
  vida: "Vida (double)",
  declare: "Declare",
  give: "Give",
  reveal: "Reveal",
  cannot: "Cannot reveal",
  use_auxiliary: "Turn up the auxiliary cards",
  discard: "Discard",
  lay_down: "Lay down",
  mau: "Call Mau",
  leave: "Leave",
  join: "Join",
};

/** One value of a command or event: cards, suits, lists of them, else its text. */
export function valueNodes(value: unknown): Node[] {
  if (isCard(value)) return [cardElement(value)];
  if (isSuit(value)) return [suitElement(value)];
  if (Array.isArray(value)) {
    if (value.every(isCard)) return [cardsElement(value)];
    const out: Node[] = [];
    value.forEach((item, i) => {
      if (i > 0) out.push(document.createTextNode(" · "));
      out.push(...valueNodes(item));
    });
    return out.length ? out : [document.createTextNode("none")];
  }
  if (value && typeof value === "object") {
    const out: Node[] = [];
    for (const [key, item] of Object.entries(value)) {
      if (out.length) out.push(document.createTextNode(", "));
      out.push(document.createTextNode(`${key.replaceAll("_", " ")} `), ...valueNodes(item));
    }
    return out;
  }
  if (value === true) return [document.createTextNode("yes")];
  if (value === false) return [document.createTextNode("no")];
  return [document.createTextNode(String(value))];
}

/** A legal command as the words on its button: "Play 7♥", "Play A♠ suit ♥", "Bid 80 ♠". */
export function commandNodes(command: CommandJson): Node[] {
  const out: Node[] = [document.createTextNode(VERBS[command.kind] ?? command.kind.replaceAll("_", " "))];
  for (const [key, value] of Object.entries(command)) {
    if (key === "kind" || key === "seat" || value === null || value === undefined || value === false) continue;
    out.push(document.createTextNode(" "));
    if (key === "card" || key === "cards" || key === "points") out.push(...valueNodes(value));
    else if (value === true) out.push(document.createTextNode(key.replaceAll("_", " ")));
    else if (key === "suit") out.push(document.createTextNode("suit "), ...valueNodes(value));
    else out.push(document.createTextNode(`${key.replaceAll("_", " ")} `), ...valueNodes(value));
  }
  return out;
}

/** Nodes as words read aloud: a card or a suit by its name. */
export function spoken(nodes: Node[]): string {
  const el = h("span", {}, ...nodes);
  for (const named of el.querySelectorAll("[aria-label]")) named.replaceWith(` ${named.getAttribute("aria-label")} `);
  return (el.textContent ?? "").replace(/\s+/g, " ").trim();
}

/** A command's words as plain text (a button's accessible name): "Play seven of hearts". */
export function commandText(command: CommandJson): string {
  return spoken(commandNodes(command));
}

/** Keys of an event's payload that name a seat. */
const PEOPLE = new Set(["winner", "chooser", "leader", "dealer", "to", "next", "player", "bidder", "by"]);

const HIDDEN_EVENTS = new Set(["SeedCommitted", "SeedGiven", "ServerSeedRevealed", "SeedRevealed", "TurnStarted"]);

/** An event as a line of the table's log ("ann: CardPlayed 7♥"), or null for the bookkeeping ones. */
export function eventNode(name: string, payload: Record<string, unknown>, names: string[]): HTMLElement | null {
  if (HIDDEN_EVENTS.has(name)) return null;
  const words = name.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  const seat = typeof payload.seat === "number" ? payload.seat : undefined;
  const person = (key: string, value: unknown): Node[] | undefined =>
    PEOPLE.has(key) && typeof value === "number" && names[value] !== undefined ? [document.createTextNode(names[value]!)] : undefined;
  const who = seat === undefined ? "" : `${names[seat] ?? `seat ${seat + 1}`}: `;
  const parts: Node[] = [];
  for (const [key, value] of Object.entries(payload)) {
    if (key === "seat" || key === "token_hash" || key === "player_id" || key === "seed" || key === "commitment") continue;
    if (value === null || value === undefined || (typeof value === "object" && !Array.isArray(value))) continue;
    if (Array.isArray(value) && value.length > 12 && !value.every(isCard)) continue;
    parts.push(document.createTextNode(` ${key.replaceAll("_", " ")} `), ...(person(key, value) ?? valueNodes(value)));
  }
  return h("li", {}, who, words, ...parts);
}
