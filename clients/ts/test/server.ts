/**
 * A real trapoula server for the tests: `trapoula serve` of the repository's virtualenv (or
 * $TRAPOULA_BIN) on a fresh SQLite file, gRPC and Connect each on a free port, stopped with SIGTERM.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { createConnectTransport } from "@connectrpc/connect-node";
import type { Transport } from "@connectrpc/connect";

const CONNECT_PREFIX = "trapoula connect on ";
const GRPC_PREFIX = "trapoula serving on ";
/** The origin the server allows (CORS), as a page's would be. */
export const PAGE_ORIGIN = "http://localhost:5173";

export interface Server {
  /** The Connect endpoint: `http://127.0.0.1:PORT`. */
  baseUrl: string;
  /** The gRPC address: `127.0.0.1:PORT`. */
  grpcAddress: string;
  /** A Connect transport over HTTP/1.1 as a browser's; `binary`: protobuf instead of JSON. */
  transport(binary?: boolean): Transport;
  stop(): Promise<void>;
}

/** Start a server; `flags` are more flags of `trapoula serve` (limits ...). */
export async function startServer(flags: string[] = []): Promise<Server> {
  const bin = process.env.TRAPOULA_BIN ?? fileURLToPath(new URL("../../../.venv/bin/trapoula", import.meta.url));
  const dir = mkdtempSync(join(tmpdir(), "trapoula-ts-"));
  const child = spawn(
    bin,
    [
      "serve",
      "--address", "127.0.0.1:0",
      "--connect-address", "127.0.0.1:0",
      "--cors-origins", PAGE_ORIGIN,
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
  let grpcAddress = "";
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`trapoula serve did not start:\n${log}`)), 30_000);
    child.once("exit", (code) => reject(new Error(`trapoula serve exited ${code}:\n${log}`)));
    lines.on("line", (line) => {
      if (line.startsWith(GRPC_PREFIX)) grpcAddress = line.slice(GRPC_PREFIX.length);
      if (line.startsWith(CONNECT_PREFIX)) {
        clearTimeout(timer);
        resolve(line.slice(CONNECT_PREFIX.length));
      }
    });
  });
  return {
    baseUrl,
    grpcAddress,
    transport: (binary = false) => createConnectTransport({ baseUrl, httpVersion: "1.1", useBinaryFormat: binary }),
    async stop() {
      child.kill("SIGTERM");
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
