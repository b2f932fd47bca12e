// Every game at the web page, in a real headless Chromium: a table with computer players created
// in the lobby, moves made by clicking (a card of the hand where one may be played, else the first
// move) and one from the keyboard, the hand shown checked against the server's view each time the
// table waits for the page.  A screenshot of each game's table goes to docs/screenshots/.
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { TrapoulaClient } from "@trapoula/client";
import { SHOTS, useRig } from "./rig.js";

const rig = useRig();

const dataset = (page: Page) =>
  page.evaluate(() => {
    const main = document.getElementById("main")!;
    return {
      version: Number(main.dataset.version),
      status: main.dataset.status ?? "",
      hand: [...document.querySelectorAll<HTMLElement>("#hand .card")].map((c) => c.dataset.card!),
    };
  });

async function play(game: string, seats: number, moves: number): Promise<void> {
  const page = await rig.browser.context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (err) => errors.push(err.message));
  await page.goto(rig.server.webUrl);
  await page.locator("#player-name").fill("ann");
  await page.locator("#create-game").selectOption(game);
  await page.locator("#create-seats").fill(String(seats));
  await page.locator("#create-seats").dispatchEvent("change");
  await page.locator("#create-submit").click();
  await page.waitForURL(/#\/t\//);
  const tableId = decodeURIComponent(new URL(page.url()).hash.replace("#/t/", ""));
  const client = new TrapoulaClient(rig.server.transport(), { seeds: false });
  client.token = await page.evaluate((id) => JSON.parse(localStorage.getItem(`trapoula.table.${id}`)!).seatToken as string, tableId);

  for (let move = 0; move < moves; move++) {
    await page.waitForSelector('#main[data-my-turn="true"][data-status="playing"], #main[data-status="over"]', { timeout: 60_000 });
    const before = await dataset(page);
    if (before.status === "over") break;
    // the page's hand against the server's view at the same version (the bots may move meanwhile:
    // the view is read again while the page is past it)
    let { version, view } = await client.view(tableId);
    for (let tries = 1; ; tries++) {
      await page.waitForFunction((v) => Number(document.getElementById("main")!.dataset.version) >= v, version);
      const shown = await dataset(page);
      if (shown.version === version || tries === 5) {
        expect([shown.version, shown.hand]).toEqual([version, view.hand ?? []]);
        break;
      }
      ({ version, view } = await client.view(tableId));
    }
    if (move === 1) await page.screenshot({ path: `${SHOTS}game-${game}.png`, fullPage: true });
    const clicked = (await dataset(page)).version;
    const card = page.locator("#hand button.card.legal").first();
    const choice = page.locator("form.choice button[type=submit]").first();
    const button = page.locator('#moves button.move:not([data-kind="leave"])').first();
    const target = (await card.count()) > 0 ? card : (await choice.count()) > 0 ? choice : button;
    if (move === 0) {
      await target.focus(); // keyboard play: a focused card or move is played with Enter
      await page.keyboard.press("Enter");
    } else await target.click();
    if ((await page.locator('#hand button.card[aria-pressed="true"]').count()) > 0) {
      await page.locator("#moves button.move").first().click();
    }
    await page.waitForFunction(
      (v) => Number(document.getElementById("main")!.dataset.version) > v && !document.getElementById("main")!.hasAttribute("aria-busy"),
      clicked,
      { timeout: 60_000 },
    );
  }
  expect(await page.locator("#connection").textContent()).not.toContain("Refused");
  expect(errors).toEqual([]);
  await page.close();
}

describe("every game at the web page", () => {
  it.each([
    ["crazy_eights", 3],
    ["mau_mau", 3],
    ["giminaiciai", 3],
    ["romis", 3],
    ["vida", 4],
    ["agonia", 2],
  ])("plays %s with computer players", async (game, seats) => {
    await play(game, seats, 6);
  });
});

describe("a table with a turn clock", () => {
  it("sets the time control from the create form and shows the seat's time ticking", async () => {
    const page = await rig.browser.context.newPage();
    await page.goto(rig.server.webUrl);
    await page.locator("#player-name").fill("ann");
    await page.locator("#create-game").selectOption("agonia");
    await page.locator("#create-seats").fill("2");
    await page.locator("#create-seats").dispatchEvent("change");
    await page.locator("#option-clock-move_seconds").fill("90");
    await page.locator("#option-clock-bank_seconds").fill("60");
    await page.locator("#create-submit").click();
    await page.waitForURL(/#\/t\//);
    const tableId = decodeURIComponent(new URL(page.url()).hash.replace("#/t/", ""));
    await page.waitForSelector('#main[data-my-turn="true"]', { timeout: 60_000 });
    const clock = page.locator('.seat[data-seat="0"] [data-deadline]');
    await expect.poll(() => clock.textContent()).toMatch(/\d+ s left|min/);
    const first = await clock.textContent();
    await expect.poll(() => clock.textContent(), { timeout: 5_000 }).not.toBe(first); // it ticks
    const { view } = await new TrapoulaClient(rig.server.transport(), { seeds: false }).view(tableId);
    const part = view.table?.clock as { move_seconds: number; bank_seconds: number; deadlines: { seat: number; deadline: string }[] };
    expect(part.move_seconds).toBe(90);
    expect(part.bank_seconds).toBe(60);
    expect(await clock.getAttribute("data-deadline")).toBe(part.deadlines.find((d) => d.seat === 0)?.deadline);
    await page.screenshot({ path: `${SHOTS}table-clock.png`, fullPage: true });
    await page.close();
  });
});
