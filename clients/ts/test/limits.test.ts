// Acceptance: a client over a limit per client is refused RESOURCE_EXHAUSTED with the ErrorInfo's
// reason and a RetryInfo whose delay the client reads (docs/operations.md, Limits).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Code, ConnectError } from "@connectrpc/connect";
import { TrapoulaClient, errorInfo, retryDelay } from "../src/index.js";
import { startServer, type Server } from "./server.js";

let server: Server;
beforeAll(async () => {
  server = await startServer(["--limit-create-per-second", "0.5", "--limit-create-burst", "1"]);
});
afterAll(async () => {
  await server?.stop();
});

describe("limits per client over Connect", () => {
  it("refuses a CreateTable over the rate with the delay to wait", async () => {
    const client = new TrapoulaClient(server.transport());
    await client.createTable("agonia", 2, { target_points: 0 });
    let refused: ConnectError | undefined;
    try {
      await client.createTable("agonia", 2, { target_points: 0 });
    } catch (err) {
      refused = ConnectError.from(err);
    }
    expect(refused?.code).toBe(Code.ResourceExhausted);
    expect(errorInfo(refused)).toEqual({ reason: "rate_limited", domain: "trapoula", metadata: { limit: "CreateTable" } });
    const delay = retryDelay(refused)!;
    expect(delay).toBeGreaterThan(1.5); // no token left: (1 - tokens) / 0.5 a second, rounded up to the ms
    expect(delay).toBeLessThanOrEqual(2.0);
    expect(retryDelay(new ConnectError("no details", Code.Unavailable))).toBeUndefined();
  });
});
