// Acceptance: a command chosen from a view the table moved past is ABORTED `stale_view`; an
// illegal move stays FAILED_PRECONDITION with the rules' reason; the ErrorInfo travels as in gRPC.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Code, ConnectError } from "@connectrpc/connect";
import { TrapoulaClient, errorInfo } from "../src/index.js";
import { startServer, type Server } from "./server.js";

let server: Server;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

/** An explicit deal (S5.3) for two seats; the stock is every other card of the 52. */
function twoPlayerDeal(hand0: string, hand1: string, starter: string) {
  const hands = [hand0.split(" "), hand1.split(" ")];
  const used = new Set([...hands.flat(), starter]);
  const stock: string[] = [];
  for (const suit of "CDHS") for (const rank of "23456789TJQKA") if (!used.has(rank + suit)) stock.push(rank + suit);
  return { hands: hands.map((cards) => ({ cards })), starter, stock };
}

async function failure(call: Promise<unknown>): Promise<ConnectError> {
  try {
    await call;
  } catch (err) {
    return ConnectError.from(err);
  }
  throw new Error("the call did not fail");
}

async function dealtTable(): Promise<{ tableId: string; ann: TrapoulaClient; bob: TrapoulaClient }> {
  const owner = new TrapoulaClient(server.transport());
  const { tableId, ownerToken } = await owner.createTable("agonia", 2, { target_points: 0 }, { manualDeal: true });
  const ann = new TrapoulaClient(server.transport());
  const bob = new TrapoulaClient(server.transport(true));
  await ann.join(tableId, "ann");
  await bob.join(tableId, "bob");
  // seat 0 plays first (the dealer is seat 1): 4D follows the 3D up-card, 5C does not (R4.1)
  await owner.startMatch(tableId, ownerToken, { deal: twoPlayerDeal("4D 5C 6H KS QS JS 2S", "3C 4C 6C 8H 9H TH JH", "3D") });
  return { tableId, ann, bob };
}

describe("view versions and refusals over Connect", () => {
  it("answers a move chosen from an old view ABORTED stale_view", async () => {
    const { tableId, ann } = await dealtTable();
    const { version, view } = await ann.view(tableId);
    const play = view.legal!.find((c) => c.kind === "play" && c.card === "4D")!;
    expect(play).toBeDefined();
    const played = await ann.act(tableId, play, { viewVersion: version });
    expect(played.version).toBeGreaterThan(version);
    expect(played.events[0]?.name).toBe("CardPlayed");

    const stale = await failure(ann.act(tableId, play, { viewVersion: version }));
    expect(stale.code).toBe(Code.Aborted);
    const info = errorInfo(stale)!;
    expect(info.reason).toBe("stale_view");
    expect(info.domain).toBe("trapoula");
    expect(info.metadata.refused).toBeTruthy();
    expect(info.metadata.rule).toMatch(/^[A-Z]+\d/); // the rule number, e.g. R4.1 or S3.7

    // without a view version the same command is the rules' plain refusal
    const plain = await failure(ann.act(tableId, play));
    expect(plain.code).toBe(Code.FailedPrecondition);
    expect(errorInfo(plain)!.reason).toBe(info.metadata.refused);
  });

  it("keeps an illegal move FAILED_PRECONDITION, even from an old view", async () => {
    const { tableId, ann, bob } = await dealtTable();
    const { version } = await ann.view(tableId);
    const illegal = await failure(ann.act(tableId, { kind: "play", card: "5C" }, { viewVersion: version }));
    expect(illegal.code).toBe(Code.FailedPrecondition);
    const info = errorInfo(illegal)!;
    expect(info.reason).toBeTruthy();
    expect(info.metadata.rule).toMatch(/^[A-Z]+\d/); // the rule number, e.g. R4.1 or S3.7

    await ann.act(tableId, { kind: "play", card: "4D" }, { viewVersion: version });
    const still = await failure(ann.act(tableId, { kind: "play", card: "5C" }, { viewVersion: version }));
    expect(still.code).toBe(Code.FailedPrecondition);

    // out of turn, as bob's own (binary protobuf) client sees it
    const { version: bobs } = await bob.view(tableId);
    const ahead = await failure(bob.act(tableId, { kind: "draw" }, { viewVersion: bobs + 100 }));
    expect(ahead.code).toBe(Code.OutOfRange);
    expect(errorInfo(ahead)!.reason).toBe("version_ahead");
  });

  it("names unknown games, tables and bad tokens as gRPC does", async () => {
    const client = new TrapoulaClient(server.transport());
    const unknown = await failure(client.createTable("nope", 2));
    expect(unknown.code).toBe(Code.InvalidArgument);
    expect(errorInfo(unknown)!.reason).toBe("unknown_game");
    const missing = await failure(client.view("00000000-0000-4000-8000-000000000000"));
    expect(missing.code).toBe(Code.NotFound);
    expect(errorInfo(missing)!.reason).toBe("table_not_found");
    const { tableId } = await client.createTable("agonia", 2);
    const denied = await failure(client.startMatch(tableId, "not-a-token"));
    expect(denied.code).toBe(Code.PermissionDenied);
  });
});
