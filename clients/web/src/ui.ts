/** Small DOM helpers. */

type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number | boolean | undefined> = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (key === "class") el.className = String(value);
    else if (key === "text") el.textContent = String(value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child);
  }
  return el;
}

/** The message of a failed call, for people. */
export function message(err: unknown): string {
  if (err instanceof Error) return err.message.replace(/^\[\w+\]\s*/, "");
  return String(err);
}

/** Show a status line (polite live region). */
export function status(text: string): void {
  const el = document.getElementById("connection");
  if (el) el.textContent = text;
}

/** Replace `el`'s children, skipping the absent ones. */
export function fill(el: HTMLElement, ...children: (Node | string | null | undefined | false)[]): void {
  el.replaceChildren(...children.filter((c): c is Node | string => c !== null && c !== undefined && c !== false));
}
