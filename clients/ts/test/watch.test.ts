// WatchTable over Connect (HTTP/1.1): resuming from the last version, the seeds the helper gives,
// the game schema, and CORS for the allowed page origin only.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TrapoulaClient, isStale, myMove, randomSeed, type Update } from "../src/index.js";
import { PAGE_ORIGIN, startServer, type Server } from "./server.js";

let server: Server;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

async function take(stream: AsyncIterable<Update>, count = Infinity): Promise<Update[]> {
  const items: Update[] = [];
  if (count <= 0) return items;
  for await (const item of stream) {
    items.push(item);
    if (items.length >= count) break; // leaving the loop cancels the stream
  }
  return items;
}

async function botMatch(): Promise<string> {
  const owner = new TrapoulaClient(server.transport());
  const { tableId, ownerToken } = await owner.createTable("agonia", 3, { target_points: 0 });
  for (let i = 0; i < 3; i++) await owner.addBot(tableId, "heuristic");
  await owner.startMatch(tableId, ownerToken);
  return tableId;
}

describe("watching over Connect", () => {
  it("resumes from the last version with no gap and no repeat", async () => {
    const tableId = await botMatch();
    const watcher = new TrapoulaClient(server.transport());
    const whole = await take(watcher.watch(tableId));
    expect(whole.at(-1)?.event?.name).toBe("MatchEnded");
    const first = await take(watcher.watch(tableId), 5);
    const rest = await take(watcher.watch(tableId, first.at(-1)!.version));
    expect([...first, ...rest].map((u) => [u.version, u.event?.name])).toEqual(
      whole.map((u) => [u.version, u.event?.name]),
    );
    expect(rest.at(-1)?.view).toEqual(whole.at(-1)?.view);
  });

  it("yields every event of a batched watch, with the view on each message's last", async () => {
    const tableId = await botMatch();
    const watcher = new TrapoulaClient(server.transport());
    const whole = await take(watcher.watch(tableId));
    const batched = await take(watcher.watch(tableId, 0, undefined, { batch: true }));
    expect(batched.map((u) => [u.version, u.event?.name, u.event?.payload])).toEqual(
      whole.map((u) => [u.version, u.event?.name, u.event?.payload]),
    );
    // a finished match: its history in messages of 200 events (servicer.BATCH_EVENTS)
    const ends = batched.flatMap((u, i) => (Object.keys(u.view).length > 0 ? [i] : []));
    const expected = [];
    for (let i = 199; i < whole.length - 1; i += 200) expected.push(i);
    expect(ends).toEqual([...expected, whole.length - 1]);
    for (const i of ends) expect(batched[i]!.view).toEqual(whole[i]!.view);
  });

  it("gives the seat's seed by itself once a new hand awaits seeds", async () => {
    const owner = new TrapoulaClient(server.transport());
    const { tableId, ownerToken } = await owner.createTable("agonia", 2, { target_points: 30 });
    const ann = new TrapoulaClient(server.transport());
    await ann.join(tableId, "ann");
    await owner.addBot(tableId, "random");
    const { view } = await ann.view(tableId);
    expect(view.table?.seed?.given).toEqual([0]); // given on joining
    await owner.startMatch(tableId, ownerToken);
    const seen = await ann.view(tableId);
    // after the deal of hand 1 the server commits to hand 2's seed: the seat owes it until its next move
    expect(seen.view.table?.seed?.hand).toBe(2);
    expect(seen.view.table?.seed?.given ?? []).not.toContain(0);
    let latest = seen;
    while (!myMove(latest.view)) latest = await ann.view(tableId);
    const owed = latest.view.table!.seed!.hand; // 2, or a later hand if the bot ended hand 1 first
    expect(latest.view.table!.seed!.given ?? []).not.toContain(0);
    const played = await ann.act(tableId, latest.view.legal![0]!, { viewVersion: latest.version });
    // the seed went in just before the move: the seat's own log shows it between the two versions
    const between: Update[] = [];
    for await (const update of ann.watch(tableId, latest.version)) {
      between.push(update);
      if (update.version >= played.version) break;
    }
    const gift = between.find((u) => u.event?.name === "SeedGiven");
    expect(gift?.event?.payload).toMatchObject({ seat: 0, hand: owed });
    expect(gift!.version).toBeLessThan(played.events[0]!.version);
    expect(randomSeed()).toMatch(/^[0-9a-f]{64}$/);
  });

  it("plays a match with the README's loop: act on the watched views", async () => {
    const transport = server.transport();
    const owner = new TrapoulaClient(transport);
    const { tableId, ownerToken } = await owner.createTable("agonia", 2, { target_points: 0 });
    const me = new TrapoulaClient(transport);
    await me.join(tableId, "ann"); // adopts the seat token, gives the seat's seed
    await owner.addBot(tableId, "heuristic");
    await owner.startMatch(tableId, ownerToken);
    let last: Update | undefined;
    for await (const update of me.watch(tableId)) {
      last = update;
      const { version, view } = update;
      if (!myMove(view)) continue;
      await me.act(tableId, view.legal![0]!, { viewVersion: version }).catch((err) => {
        if (!isStale(err)) throw err; // the table moved on: the next update brings a newer view
      });
    }
    expect(last?.event?.name).toBe("MatchEnded");
  });

  it("serves each game's JSON Schema", async () => {
    const schema = await new TrapoulaClient(server.transport()).gameSchema("romis");
    expect(Object.keys(schema.$defs as object)).toContain("view");
  });

  it("answers CORS preflights for the allowed origin only", async () => {
    const url = `${server.baseUrl}/trapoula.api.v1.TableService/WatchTable`;
    const preflight = (origin: string) =>
      fetch(url, {
        method: "OPTIONS",
        headers: {
          origin,
          "access-control-request-method": "POST",
          "access-control-request-headers": "authorization,content-type,connect-protocol-version",
        },
      });
    const allowed = await preflight(PAGE_ORIGIN);
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get("access-control-allow-origin")).toBe(PAGE_ORIGIN);
    expect(allowed.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("authorization");
    const other = await preflight("http://elsewhere.example");
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
  });
});
