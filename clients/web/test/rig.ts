/**
 * What every browser test file starts with: a real server (./server.ts) and one or more headless
 * Chromiums (./browser.ts), started before the file's tests and closed after them, and the folder
 * its screenshots go to: docs/screenshots/ when TRAPOULA_SCREENSHOTS=docs (`make screenshots`),
 * else a folder of the system's temporary directory, so that running the tests leaves the
 * checkout as it was.
 */
import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll } from "vitest";
import { launch, type Browser } from "./browser.js";
import { startServer, type Server } from "./server.js";

export const SHOTS =
  process.env.TRAPOULA_SCREENSHOTS === "docs"
    ? fileURLToPath(new URL("../../../docs/screenshots/", import.meta.url))
    : join(tmpdir(), "trapoula-screenshots") + "/";

export interface Rig {
  /** The server, once started. */
  readonly server: Server;
  /** The first browser. */
  readonly browser: Browser;
  /** Every browser, in the order of their viewports. */
  readonly browsers: Browser[];
}

/** Start a server and a browser per viewport (the default size when none is given) before the
 *  file's tests; close them after. */
export function useRig(viewports: ({ width: number; height: number } | undefined)[] = [undefined]): Rig {
  let server: Server | undefined;
  const browsers: Browser[] = [];
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    server = await startServer();
    for (const viewport of viewports) browsers.push(await launch(viewport));
  });
  afterAll(async () => {
    for (const browser of browsers) await browser.close();
    await server?.stop();
  });
  return {
    get server() {
      if (server === undefined) throw new Error("the server is not started yet");
      return server;
    },
    get browser() {
      return browsers[0]!;
    },
    browsers,
  };
}
