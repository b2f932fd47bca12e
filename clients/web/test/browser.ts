/**
 * Debian's Chromium, headless, driven by playwright-core (no browser is downloaded): $CHROMIUM,
 * else /usr/bin/chromium.  Each browser gets a fresh profile, removed when it closes.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext } from "playwright-core";

export const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";

const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** A browser with its own profile (its own localStorage: its own seats). */
export async function launch(viewport = { width: 1100, height: 900 }): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), "trapoula-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
