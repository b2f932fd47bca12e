// Acceptance, in a real headless Chromium: a recorded vida match opened in the replay viewer
// (dropped on it, or chosen as a file), stepped to a position, seen through a chosen seat's eyes;
// the cards shown are the seat's cards in the server's replay of the record, and the audit's
// verdict shows.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { TrapoulaClient } from "@trapoula/client";
import { SHOTS, useRig } from "./rig.js";

const VIDA = fileURLToPath(new URL("../../../tests/clients/records_v1/vida.jsonl", import.meta.url));

const rig = useRig();

async function position(page: Page): Promise<number> {
  return Number(await page.locator("#main").getAttribute("data-position"));
}

describe("the replay viewer", () => {
  it("steps through a recorded vida match through a chosen seat's eyes", async () => {
    const record = readFileSync(VIDA, "utf-8");
    const page = await rig.browser.context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (err) => errors.push(err.message));
    await page.goto(`${rig.server.webUrl}#/replay`);

    // dropped on the page
    const drop = await page.evaluateHandle((text) => {
      const data = new DataTransfer();
      data.items.add(new File([text], "vida.jsonl", { type: "application/jsonl" }));
      return data;
    }, record);
    await page.locator("#drop").dispatchEvent("drop", { dataTransfer: drop });
    await page.waitForSelector('#verdict[data-verified="true"]');
    expect(await position(page)).toBe(0);

    // through the third seat's eyes, to event 30, then a step forward and back
    await page.locator("#replay-seat").selectOption("2");
    await page.waitForSelector('#main[data-seat="2"]');
    await page.locator("#replay-position").fill("30");
    await page.locator("#replay-go").click();
    await page.waitForSelector('#main[data-position="30"]');
    await page.locator("#replay-forward").click();
    await page.waitForSelector('#main[data-position="31"]');
    await page.keyboard.press("ArrowLeft");
    await page.waitForSelector('#main[data-position="30"]');

    const replay = new TrapoulaClient(rig.server.transport(), { seeds: false });
    const answer = await replay.service.replayRecord({ jsonl: record, seat: 2, positions: [30] });
    const view = JSON.parse(answer.positions[0]!.viewJson) as { hand: string[]; hand_sizes: number[] };
    const shown = await page.locator("#replay-cards .card").evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.card));
    expect(shown).toEqual(view.hand);
    expect(shown.length).toBeGreaterThan(0);
    const counts = await page.locator(".seat [data-cards]").evaluateAll((els) => els.map((e) => Number((e as HTMLElement).dataset.cards)));
    expect(counts).toEqual(view.hand_sizes);
    await page.screenshot({ path: `${SHOTS}replay-vida.png`, fullPage: true });

    // a spectator sees no hand; the second hand starts where the list of hands says
    await page.locator("#replay-seat").selectOption("");
    await page.waitForSelector('#main[data-seat=""]');
    expect(await page.locator("#replay-cards").count()).toBe(0);
    await page.locator("#replay-hand").selectOption({ label: "hand 2" });
    const second = answer.steps.find((s) => s.hand === 2)!.position;
    await page.waitForSelector(`#main[data-position="${second}"]`);

    expect(errors).toEqual([]);

    // the same record chosen as a file
    const chosen = await rig.browser.context.newPage();
    await chosen.goto(`${rig.server.webUrl}#/replay`);
    await chosen.locator("#record-file").setInputFiles(VIDA);
    await chosen.waitForSelector('#verdict[data-verified="true"]');
    await chosen.locator("#replay-last").click();
    await chosen.waitForSelector(`#main[data-position="${answer.steps.length}"]`);
  });

  it("says what is wrong with a file that is not a record", async () => {
    const page = await rig.browser.context.newPage();
    await page.goto(`${rig.server.webUrl}#/replay`);
    await page.locator("#record-file").setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello\n") });
    await expect.poll(() => page.locator("#replay-error").textContent()).toContain("not a record");
  });
});
