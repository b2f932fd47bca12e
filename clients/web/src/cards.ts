/** Cards as the views write them ("7H", "TD": rank then suit) shown as text and read aloud. */

const RANKS: Record<string, [string, string]> = {
  "2": ["2", "two"],
  "3": ["3", "three"],
  "4": ["4", "four"],
  "5": ["5", "five"],
  "6": ["6", "six"],
  "7": ["7", "seven"],
  "8": ["8", "eight"],
  "9": ["9", "nine"],
  T: ["10", "ten"],
  J: ["J", "jack"],
  Q: ["Q", "queen"],
  K: ["K", "king"],
  A: ["A", "ace"],
};

export const SUITS: Record<string, [string, string]> = {
  C: ["♣", "clubs"],
  D: ["♦", "diamonds"],
  H: ["♥", "hearts"],
  S: ["♠", "spades"],
};

export function isCard(value: unknown): value is string {
  return typeof value === "string" && /^[23456789TJQKA][CDHS]$/.test(value);
}

export function isSuit(value: unknown): value is string {
  return typeof value === "string" && value in SUITS;
}

/** "7♥" */
export function cardText(code: string): string {
  return `${RANKS[code[0]!]?.[0] ?? code[0]}${SUITS[code[1]!]?.[0] ?? code[1]}`;
}

/** "seven of hearts" */
export function cardName(code: string): string {
  return `${RANKS[code[0]!]?.[1] ?? code[0]} of ${SUITS[code[1]!]?.[1] ?? code[1]}`;
}

export function suitText(suit: string): string {
  return SUITS[suit]?.[0] ?? suit;
}

export function suitName(suit: string): string {
  return SUITS[suit]?.[1] ?? suit;
}

export function isRed(code: string): boolean {
  const suit = code.length === 1 ? code : code[1];
  return suit === "H" || suit === "D";
}

/** A card face: its text shown, its name read aloud (the visible text is hidden from screen readers). */
export function cardElement(code: string, tag: "span" | "button" = "span"): HTMLElement {
  const el = document.createElement(tag);
  el.className = `card${isRed(code) ? " red" : ""}`;
  el.dataset.card = code;
  const face = document.createElement("span");
  face.setAttribute("aria-hidden", "true");
  face.textContent = cardText(code);
  el.append(face);
  const name = document.createElement("span");
  name.className = "sr-only";
  name.textContent = cardName(code);
  el.append(name);
  if (tag === "span") el.setAttribute("role", "img"), el.setAttribute("aria-label", cardName(code));
  return el;
}

/** A suit sign, red or black, with its name for screen readers. */
export function suitElement(suit: string): HTMLElement {
  const el = document.createElement("span");
  el.className = `suit${isRed(suit) ? " red" : ""}`;
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", suitName(suit));
  el.textContent = suitText(suit);
  return el;
}

/** A row of cards (a hand, a revealed group, a trick). */
export function cardsElement(codes: string[], label?: string): HTMLElement {
  const el = document.createElement("span");
  el.className = "cards";
  if (label) el.setAttribute("aria-label", label);
  if (codes.length === 0) {
    el.textContent = "none";
    el.classList.add("empty");
  }
  for (const code of codes) el.append(cardElement(code));
  return el;
}
