// Acceptance, in a real headless Chromium: romis's sealed rounds with two people, each in a
// browser of their own (the second takes the seat from the shared link); a move stays sealed
// from the other until both have moved, then both reveals show.  And vida's auction, chosen in
// the bid form, as the server records it.
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { TrapoulaClient } from "@trapoula/client";
import { launch, type Browser } from "./browser.js";
import { SHOTS, useRig } from "./rig.js";

const rig = useRig([undefined, { width: 420, height: 900 }]);

async function create(
  page: Page,
  game: string,
  seats: number,
  people: number[],
  options: Record<string, string> = {},
  unlisted = false,
): Promise<string> {
  await page.goto(rig.server.webUrl);
  await page.locator("#player-name").fill("ann");
  await page.locator("#create-game").selectOption(game);
  await page.locator("#create-seats").fill(String(seats));
  await page.locator("#create-seats").dispatchEvent("change");
  for (let seat = 1; seat < seats; seat++) await page.locator(`#seat-${seat}`).selectOption(people.includes(seat) ? "" : "heuristic");
  for (const [key, value] of Object.entries(options)) await page.locator(`#option-${key}`).fill(value);
  if (unlisted) await page.locator("#create-private").check();
  await page.locator("#create-submit").click();
  await page.waitForURL(/#\/t\//);
  return decodeURIComponent(new URL(page.url()).hash.replace("#/t/", ""));
}

/** Make the page's sealed move of this round: the first reveal offered, else the first move
 * (turning up the auxiliary cards first when no reveal is possible, or "cannot"). */
async function moveOnce(page: Page): Promise<string | null> {
  for (let i = 0; i < 4; i++) {
    await page.waitForSelector('#main[data-my-turn="true"]');
    const reveal = page.locator('#moves button.move[data-kind="reveal"]');
    const button = (await reveal.count()) > 0 ? reveal.first() : page.locator("#moves button.move").first();
    const kind = await button.getAttribute("data-kind");
    const before = await page.evaluate(() => Number(document.getElementById("main")!.dataset.version));
    await button.click();
    await page.waitForFunction(
      (v) => Number(document.getElementById("main")!.dataset.version) > v && !document.getElementById("main")!.hasAttribute("aria-busy"),
      before,
    );
    if (kind !== "use_auxiliary") return kind;
  }
  return null;
}

describe("sealed rounds and the auction", () => {
  it("plays a romis round with two people in two browsers", async () => {
    const a = await rig.browsers[0]!.context.newPage();
    const tableId = await create(a, "romis", 2, [1], {}, true); // private: joined from its link only
    await a.waitForSelector('#main[data-status="open"]');
    const link = (await a.locator(".share a").getAttribute("href"))!;
    expect(link).toMatch(new RegExp(`#/t/${tableId}/.+`));
    const lobby = new TrapoulaClient(rig.server.transport(), { seeds: false });
    expect((await lobby.service.listLobby({})).tables.map((t) => t.tableId)).not.toContain(tableId);

    const b = await rig.browsers[1]!.context.newPage();
    await b.goto(link);
    await b.locator("#join-name").fill("bob");
    await b.locator("#join").click();
    await b.waitForSelector('#main[data-seat="1"]');

    await a.locator("#start").click();
    await a.waitForSelector('#main[data-status="playing"]');
    await b.waitForSelector('#main[data-status="playing"]');

    const spectator = new TrapoulaClient(rig.server.transport(), { seeds: false });
    const round = (await spectator.view(tableId)).view.round;
    await moveOnce(a);
    // bob sees that ann moved, not what: her move is sealed until he has moved too
    const sealed = (await spectator.view(tableId)).view;
    expect(sealed.submitted).toEqual([0]);
    await b.waitForSelector('.seat[data-seat="0"] [data-sealed="true"]');
    expect(await b.locator('.seat[data-seat="0"] .revealed').count()).toBe(0);
    await b.screenshot({ path: `${SHOTS}table-romis.png`, fullPage: true });
    await moveOnce(b);

    // both moved: the round is resolved, and both pages show the revealed cards the server shows
    // (or, when a seat could not reveal and dropped out, the hand's end)
    await expect
      .poll(async () => {
        const { view } = await spectator.view(tableId);
        return view.round !== round || view.hand_no !== 1;
      })
      .toBe(true);
    const { view } = await spectator.view(tableId);
    const revealed = view.revealed as string[][];
    for (const page of [a, b]) {
      if (view.hand_no !== 1) {
        await page.waitForSelector("#last-hand");
        continue;
      }
      for (const [seat, cards] of revealed.entries()) {
        await expect
          .poll(() =>
            page.locator(`.seat[data-seat="${seat}"] .revealed .card`).evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.card)),
          )
          .toEqual(cards);
      }
    }
    await a.screenshot({ path: `${SHOTS}table-romis-revealed.png`, fullPage: true });
  });

  it("bids in vida's auction from the bid form", async () => {
    const a = await rig.browsers[0]!.context.newPage();
    const tableId = await create(a, "vida", 4, []);
    await a.waitForSelector('#main[data-my-turn="true"]', { timeout: 60_000 });
    const form = a.locator('form.choice[data-kind="bid"]');
    await form.waitFor();
    await a.screenshot({ path: `${SHOTS}table-vida.png`, fullPage: true });
    const points = await form.locator('select[data-field="points"] option').first().getAttribute("value");
    await form.locator('select[data-field="points"]').selectOption(points!);
    await form.locator('select[data-field="suit"]').selectOption('"H"');
    await form.locator("button[type=submit]").click();
    const spectator = new TrapoulaClient(rig.server.transport(), { seeds: false });
    const calls = async () => ((await spectator.view(tableId)).view.auction ?? []) as Record<string, unknown>[];
    await expect.poll(async () => (await calls()).some((call) => call.seat === 0), { timeout: 20_000 }).toBe(true);
    const mine = JSON.stringify((await calls()).find((call) => call.seat === 0));
    expect(mine).toContain('"H"');
    expect(mine).toContain(String(JSON.parse(points!)));
  });
});
