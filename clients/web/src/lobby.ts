/** The lobby: the open tables (join, watch), a form to create a table (game, seats, computer
 * players' levels, the game's options from its schema) and the finished matches. */
import type { GameInfo } from "@trapoula/client";
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import { anonymous, playerName, remember, setPlayerName, tableLink, transport } from "./session.js";
import { TrapoulaClient } from "@trapoula/client";
import { h, message } from "./ui.js";

type OptionSchema = {
  $ref?: string;
  properties?: Record<string, OptionSchema>;
  type?: string | string[];
  enum?: JsonValue[];
  default?: JsonValue;
  minimum?: number;
  maximum?: number;
  description?: string;
};

let games: GameInfo[] = [];

/** A field of the create form for one option (a list of choices, a box, a number or a text), or
 * null for a kind it cannot offer. */
function optionField(
  id: string,
  key: string,
  spec: OptionSchema,
  value: JsonValue,
): { row: HTMLElement; input: HTMLInputElement | HTMLSelectElement } | null {
  let input: HTMLInputElement | HTMLSelectElement;
  const types = Array.isArray(spec.type) ? spec.type : [spec.type];
  if (spec.enum) {
    input = h("select", { id, name: key, "data-option": key, "data-kind": "enum" });
    for (const choice of spec.enum) input.append(h("option", { value: JSON.stringify(choice), text: String(choice) }));
    input.value = JSON.stringify(value);
  } else if (types.includes("boolean")) {
    input = h("input", { id, name: key, type: "checkbox", "data-option": key, "data-kind": "boolean" });
    input.checked = value === true;
  } else if (types.includes("integer") || types.includes("number")) {
    input = h("input", {
      id, name: key, type: "number", "data-option": key, "data-kind": "number",
      min: spec.minimum, max: spec.maximum, value: value === null ? "" : String(value),
    });
  } else if (types.includes("string")) {
    input = h("input", { id, name: key, type: "text", "data-option": key, "data-kind": "text", value: value === null ? "" : String(value) });
  } else return null;
  const help = spec.description ? h("span", { class: "help", id: `${id}-help`, text: spec.description.replaceAll("``", "") }) : null;
  if (help) input.setAttribute("aria-describedby", `${id}-help`);
  return { row: h("p", { class: "field" }, h("label", { for: id, text: `${key.replaceAll("_", " ")} ` }), input, help), input };
}

/** The value a field of the create form holds (undefined: left empty). */
function optionValue(input: HTMLInputElement | HTMLSelectElement): JsonValue | undefined {
  if (input.dataset.kind === "boolean") return (input as HTMLInputElement).checked;
  if (input.dataset.kind === "enum") return JSON.parse(input.value) as JsonValue;
  if (input.value === "") return undefined;
  return input.dataset.kind === "number" ? Number(input.value) : input.value;
}

/** Show the lobby in `main`; returns what leaves it: once left (another route took `main`), the
 * answers still on their way write nothing into `main`. */
export function showLobby(main: HTMLElement): () => void {
  const left = new AbortController();
  void drawLobby(main, left.signal);
  return () => left.abort();
}

async function drawLobby(main: HTMLElement, left: AbortSignal): Promise<void> {
  main.replaceChildren(h("h1", { text: "Lobby" }), h("p", { text: "Loading…" }));
  try {
    games = (await anonymous.service.listGames({})).games;
  } catch (err) {
    if (left.aborted) return;
    main.replaceChildren(h("h1", { text: "Lobby" }), h("p", { role: "alert", text: `The server did not answer: ${message(err)}` }));
    return;
  }
  const name = h("input", { id: "player-name", name: "name", autocomplete: "nickname", required: true, maxlength: 40, value: playerName() });
  name.addEventListener("change", () => setPlayerName(name.value.trim()));
  const tables = h("section", { "aria-labelledby": "open-tables" });
  const matches = h("section", { "aria-labelledby": "finished" });
  const form = await createForm(name);
  if (left.aborted) return;
  main.replaceChildren(
    h("h1", { text: "Lobby" }),
    h("p", { class: "field" }, h("label", { for: "player-name", text: "Your name " }), name),
    form,
    tables,
    matches,
  );
  // these write into their own sections only, which are out of the page once it is left
  await Promise.all([listTables(tables, name), listMatches(matches)]);
}

async function createForm(name: HTMLInputElement): Promise<HTMLElement> {
  const form = h("form", { class: "create", "aria-labelledby": "create-title" });
  const game = h("select", { id: "create-game", name: "game" });
  for (const info of games) game.append(h("option", { value: info.key, text: `${info.title} (${info.key})` }));
  game.value = games.some((g) => g.key === "agonia") ? "agonia" : (games[0]?.key ?? "");
  const seats = h("input", { id: "create-seats", name: "seats", type: "number", required: true });
  const others = h("fieldset", { class: "others" });
  const options = h("fieldset", { class: "options" });
  const error = h("p", { class: "error", role: "alert" });
  const secret = h("input", { id: "create-private", type: "checkbox" });
  const submit = h("button", { type: "submit", id: "create-submit", text: "Create the table" });

  const info = () => games.find((g) => g.key === game.value)!;
  const drawOthers = () => {
    const g = info();
    const count = Math.max(g.minPlayers, Math.min(g.maxPlayers, Number(seats.value) || g.minPlayers));
    const kept = [...others.querySelectorAll("select")].map((s) => s.value);
    others.replaceChildren(h("legend", { text: "The other seats" }));
    for (let seat = 1; seat < count; seat++) {
      const select = h("select", { id: `seat-${seat}`, name: `seat-${seat}`, "data-seat": seat });
      select.append(h("option", { value: "", text: "a person (an open seat)" }));
      for (const level of g.botLevels) select.append(h("option", { value: level, text: `computer: ${level}` }));
      select.value = kept[seat - 1] ?? (g.botLevels.includes("heuristic") ? "heuristic" : (g.botLevels[0] ?? ""));
      others.append(h("p", { class: "field" }, h("label", { for: `seat-${seat}`, text: `Seat ${seat + 1} ` }), select));
    }
  };
  const drawOptions = async () => {
    const g = info();
    options.replaceChildren(h("legend", { text: `${g.title}: options` }));
    const schema = (await anonymous.gameSchema(g.key)) as {
      $defs?: Record<string, OptionSchema> & { options?: { properties?: Record<string, OptionSchema> } };
    };
    const props = schema.$defs?.options?.properties ?? {};
    const defaults = JSON.parse(g.optionsJson || "{}") as JsonObject;
    for (const [key, spec] of Object.entries(props)) {
      // an option that is an object of its own (the time control, docs/clock.md): a field per part
      const ref = spec.$ref?.startsWith("#/$defs/") ? schema.$defs?.[spec.$ref.slice(8)] : undefined;
      if (ref?.properties) {
        const given = (defaults[key] ?? {}) as JsonObject;
        const group = h("fieldset", { class: "group", "data-option-group": key }, h("legend", { text: key.replaceAll("_", " ") }));
        if (ref.description) group.append(h("p", { class: "help", text: ref.description.replaceAll("``", "") }));
        for (const [part, partSpec] of Object.entries(ref.properties)) {
          const field = optionField(`option-${key}-${part}`, part, partSpec, given[part] ?? partSpec.default ?? null);
          if (!field) continue;
          field.input.dataset.group = key;
          group.append(field.row);
        }
        options.append(group);
        continue;
      }
      const field = optionField(`option-${key}`, key, spec, defaults[key] ?? spec.default ?? null);
      if (field) options.append(field.row);
    }
  };
  const drawGame = async () => {
    const g = info();
    seats.min = String(g.minPlayers);
    seats.max = String(g.maxPlayers);
    seats.value = String(g.maxPlayers);
    drawOthers();
    await drawOptions();
  };
  game.addEventListener("change", () => void drawGame());
  seats.addEventListener("change", drawOthers);

  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    void (async () => {
      error.textContent = "";
      const who = name.value.trim();
      if (!who) {
        error.textContent = "Give your name first.";
        name.focus();
        return;
      }
      setPlayerName(who);
      submit.disabled = true;
      try {
        const chosen: JsonObject = {};
        for (const input of options.querySelectorAll<HTMLInputElement | HTMLSelectElement>("[data-option]")) {
          const value = optionValue(input);
          if (value === undefined) continue;
          const group = input.dataset.group;
          if (group) chosen[group] = { ...((chosen[group] ?? {}) as JsonObject), [input.dataset.option!]: value };
          else chosen[input.dataset.option!] = value;
        }
        // a time control without seconds per move is no clock: leave it out
        const clock = chosen.clock as JsonObject | undefined;
        if (clock && !clock.move_seconds) delete chosen.clock;
        const levels = [...others.querySelectorAll("select")].map((s) => s.value);
        const tableId = await createTable(game.value, levels.length + 1, chosen, who, levels, secret.checked);
        window.location.hash = `#/t/${encodeURIComponent(tableId)}`;
      } catch (err) {
        error.textContent = `The table was not created: ${message(err)}`;
      } finally {
        submit.disabled = false;
      }
    })();
  });

  form.append(
    h("h2", { id: "create-title", text: "Create a table" }),
    h("p", { class: "field" }, h("label", { for: "create-game", text: "Game " }), game),
    h("p", { class: "field" }, h("label", { for: "create-seats", text: "Seats " }), seats),
    others,
    h("p", { class: "field" }, secret, h("label", { for: "create-private", text: "Private: not listed, joined only from its link" })),
    options,
    error,
    submit,
  );
  await drawGame();
  return form;
}

/** Create a table, take its first seat, seat the computer players (`levels[i]` for seat i+1, ""
 * for an open seat) and start the match when no seat is left open; returns its id.  A private
 * table is not listed; its link carries the invitation code. */
async function createTable(
  game: string,
  seats: number,
  options: JsonObject,
  name: string,
  levels: string[],
  unlisted: boolean,
): Promise<string> {
  const client = new TrapoulaClient(transport);
  const { tableId, ownerToken, invitationCode } = await client.createTable(game, seats, options, { private: unlisted });
  remember(tableId, { ownerToken, name, invitationCode });
  const joined = await client.join(tableId, name, 0, invitationCode);
  remember(tableId, { seat: joined.seat, seatToken: joined.seatToken });
  for (const [i, level] of levels.entries()) if (level) await client.addBot(tableId, level, i + 1, "", ownerToken);
  if (levels.every((level) => level)) await client.startMatch(tableId, ownerToken);
  return tableId;
}

async function listTables(section: HTMLElement, name: HTMLInputElement): Promise<void> {
  const refresh = h("button", { type: "button", class: "small", id: "refresh", text: "Refresh" });
  refresh.addEventListener("click", () => void listTables(section, name));
  section.replaceChildren(h("h2", { id: "open-tables" }, "Open tables ", refresh));
  const { tables } = await anonymous.service.listLobby({});
  if (tables.length === 0) {
    section.append(h("p", { text: "No open table: create one." }));
    return;
  }
  const list = h("ul", { class: "tables" });
  for (const table of tables) {
    const title = games.find((g) => g.key === table.game)?.title ?? table.game;
    const players = table.players.map((p) => (p.bot ? `${p.name} (computer)` : p.name)).join(", ") || "nobody yet";
    const join = h("button", { type: "button", text: "Join", "data-table": table.tableId });
    join.addEventListener("click", () => {
      void (async () => {
        const who = name.value.trim();
        if (!who) {
          name.focus();
          return;
        }
        setPlayerName(who);
        const client = new TrapoulaClient(transport);
        try {
          const joined = await client.join(table.tableId, who);
          remember(table.tableId, { seat: joined.seat, seatToken: joined.seatToken, name: who });
          window.location.hash = `#/t/${encodeURIComponent(table.tableId)}`;
        } catch (err) {
          join.after(h("span", { class: "error", role: "alert", text: ` ${message(err)}` }));
        }
      })();
    });
    list.append(
      h("li", {},
        h("strong", { text: title }),
        ` — ${table.seats} seats, ${table.openPlaces} open; ${players} `,
        table.openPlaces > 0 ? join : null,
        " ",
        h("a", { href: tableLink(table.tableId), text: "Watch" }),
      ),
    );
  }
  section.append(list);
}

async function listMatches(section: HTMLElement): Promise<void> {
  section.replaceChildren(h("h2", { id: "finished", text: "Finished matches" }));
  try {
    const { matches } = await anonymous.service.listMatches({ pageSize: 10 });
    if (matches.length === 0) {
      section.append(h("p", { text: "None yet." }));
      return;
    }
    const list = h("ul", { class: "matches" });
    for (const match of matches) {
      const players = match.players.map((p) => `${p.name}${p.won ? " (won)" : ""}`).join(", ");
      list.append(
        h("li", {},
          h("a", { href: tableLink(match.tableId), text: match.game }),
          ` — ${players} `,
          match.recordAvailable ? h("a", { href: `#/replay/${encodeURIComponent(match.tableId)}`, text: "Replay", "data-replay": match.tableId }) : null,
        ),
      );
    }
    section.append(list);
  } catch (err) {
    section.append(h("p", { text: message(err) }));
  }
}
