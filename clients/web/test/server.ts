/**
 * A real trapoula server for the browser tests: `trapoula serve` of the repository's virtualenv
 * (or $TRAPOULA_BIN) on a fresh SQLite file, gRPC and Connect each on a free port, the built page
 * served by the Connect endpoint (its `trapoula web on` line); stopped with SIGTERM.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { createConnectTransport } from "@connectrpc/connect-node";
import type { Transport } from "@connectrpc/connect";

const WEB_PREFIX = "trapoula web on ";
const CONNECT_PREFIX = "trapoula connect on ";

export interface Server {
  /** The page's address, `http://127.0.0.1:PORT/`. */
  webUrl: string;
  /** The Connect endpoint, `http://127.0.0.1:PORT`. */
  baseUrl: string;
  transport(): Transport;
  stop(): Promise<void>;
}

export async function startServer(flags: string[] = []): Promise<Server> {
  const bin = process.env.TRAPOULA_BIN ?? fileURLToPath(new URL("../../../.venv/bin/trapoula", import.meta.url));
  const dir = mkdtempSync(join(tmpdir(), "trapoula-web-"));
  const child = spawn(
    bin,
    [
      "serve",
      "--address", "127.0.0.1:0",
      "--connect-address", "127.0.0.1:0",
      "--metrics-address", "off",
      "--watch-poll-seconds", "1",
      "--database-url", `sqlite:///${join(dir, "trapoula.sqlite3")}`,
      ...flags,
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let log = "";
  child.stderr.on("data", (chunk: Buffer) => {
    log += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const lines = createInterface({ input: child.stdout });
  let baseUrl = "";
  const webUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`trapoula serve did not serve the page:\n${log}`)), 30_000);
    child.once("exit", (code) => reject(new Error(`trapoula serve exited ${code}:\n${log}`)));
    lines.on("line", (line) => {
      if (line.startsWith(CONNECT_PREFIX)) baseUrl = line.slice(CONNECT_PREFIX.length);
      if (line.startsWith(WEB_PREFIX)) {
        clearTimeout(timer);
        resolve(line.slice(WEB_PREFIX.length));
      }
    });
  });
  return {
    webUrl,
    baseUrl,
    transport: () => createConnectTransport({ baseUrl, httpVersion: "1.1" }),
    async stop() {
      child.kill("SIGTERM");
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
