// Acceptance: whole matches over the Connect protocol, every move a legal entry sent verbatim,
// with a watch stream open all along; the final result and the standings agree with it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Code, ConnectError } from "@connectrpc/connect";
import { TrapoulaClient, myMove, type Update } from "../src/index.js";
import { startServer, type Server } from "./server.js";

let server: Server;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

/** A small seeded random source (mulberry32), so a failing match can be replayed. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function collect(stream: AsyncIterable<Update>): Promise<Update[]> {
  const items: Update[] = [];
  for await (const item of stream) items.push(item);
  return items;
}

/** Each player moves when the match waits for it, choosing among its view's legal entries, until the match is over. */
async function playToEnd(players: TrapoulaClient[], tableId: string, rng: () => number): Promise<number> {
  let moves = 0;
  for (let round = 0; round < 20_000; round++) {
    let moved = false;
    for (const player of players) {
      const { version, view } = await player.view(tableId);
      if (view.table?.status === "over") return moves;
      if (!myMove(view)) continue;
      // a card when one may be played (so that hands end soon), else any legal entry
      const legal = view.legal ?? [];
      const plays = legal.filter((c) => c.kind === "play" || c.kind === "reveal");
      const choices = plays.length > 0 ? plays : legal;
      const entry = choices[Math.floor(rng() * choices.length)]!;
      try {
        await player.act(tableId, entry, { viewVersion: version });
        moves++;
        moved = true;
      } catch (err) {
        // a bot or an automatic deal moved the table on meanwhile: look again
        if (ConnectError.from(err).code !== Code.Aborted) throw err;
      }
    }
    if (!moved) await sleep(10);
  }
  throw new Error("the match did not end");
}

async function playMatch(
  game: string,
  options: Record<string, number>,
  names: string[],
  bots: number,
  seed: number,
): Promise<void> {
  const owner = new TrapoulaClient(server.transport());
  const { tableId, ownerToken } = await owner.createTable(game, names.length + bots, options);
  const players = names.map(() => new TrapoulaClient(server.transport(seed % 2 === 0)));
  const seats: number[] = [];
  for (const [i, player] of players.entries()) seats.push((await player.join(tableId, names[i]!)).seat);
  for (let b = 0; b < bots; b++) await owner.addBot(tableId, "random");
  const spectator = new TrapoulaClient(server.transport());
  const watched = collect(spectator.watch(tableId));
  await owner.startMatch(tableId, ownerToken);
  const moves = await playToEnd(players, tableId, random(seed));
  expect(moves).toBeGreaterThan(0);
  if (process.env.TRAPOULA_TS_VERBOSE) console.log(game, moves, "moves");

  const updates = await watched;
  const versions = updates.map((u) => u.version);
  expect(versions).toEqual(versions.map((_, i) => i + 1)); // no gap, no repeat
  const last = updates.at(-1)!;
  expect(last.event?.name).toBe("MatchEnded");
  expect(last.view.table?.status).toBe("over");
  // every person's seat gave its own seed for the first hand (docs/shuffle.md 2a)
  const given = updates.filter((u) => u.event?.name === "SeedGiven" && u.event.payload.hand === 1);
  const seeded = new Set(given.map((u) => u.event!.payload.seat));
  for (const seat of seats) expect(seeded).toContain(seat);

  // the final result, as each seat sees it, and the match history and standings of the read models
  const result = last.event!.payload;
  for (const player of players) {
    const { view } = await player.view(tableId);
    expect(view.table?.status).toBe("over");
  }
  let summary;
  for (let i = 0; i < 200 && !summary; i++) {
    const { matches } = await owner.service.listMatches({ game });
    summary = matches.find((m) => m.tableId === tableId);
    if (!summary) await sleep(50);
  }
  expect(summary).toBeDefined();
  expect(JSON.parse(summary!.resultJson)).toEqual(result);
  expect(summary!.recordComplete).toBe(true);
  const { standings } = await owner.service.getStandings({ game });
  for (const name of names) {
    const row = standings.find((s) => s.player === name);
    expect(row?.played).toBeGreaterThanOrEqual(1);
    const won = summary!.players.find((p) => p.name === name)!.won;
    expect(row!.won).toBeGreaterThanOrEqual(won ? 1 : 0);
  }
}

describe("whole matches over Connect", () => {
  it("plays agonia to the end: two people and a bot", async () => {
    await playMatch("agonia", { target_points: 0 }, ["ann", "bob"], 1, 1);
  });

  it("plays romis to the end: three people", async () => {
    await playMatch("romis", { target_score: 1 }, ["cleo", "dan", "eve"], 0, 2);
  });
});
