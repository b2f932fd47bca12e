// Acceptance, in a real headless Chromium: create an agonia table with three computer players in
// the lobby, play a hand to its end by clicking cards and buttons, and check the hand and the
// totals the page shows against the server's own views.  Screenshots go to docs/screenshots/.
// And a dealt hand whose many plays differ in a field some lack (aces naming a suit or none),
// chosen in the page's form of choices.
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { TrapoulaClient } from "@trapoula/client";
import { launch } from "./browser.js";
import { SHOTS, useRig } from "./rig.js";

const rig = useRig();

/** What the page shows: its version, whose move, the cards of its hand. */
async function shown(page: Page): Promise<{ version: number; status: string; myTurn: boolean; hand: string[] }> {
  return page.evaluate(() => {
    const main = document.getElementById("main")!;
    return {
      version: Number(main.dataset.version),
      status: main.dataset.status ?? "",
      myTurn: main.dataset.myTurn === "true",
      hand: [...document.querySelectorAll<HTMLElement>("#hand .card")].map((c) => c.dataset.card!),
    };
  });
}

/** The seat token the page keeps for `tableId` (to ask the server for the same seat's view). */
async function seatToken(page: Page, tableId: string): Promise<string> {
  return page.evaluate((id) => JSON.parse(localStorage.getItem(`trapoula.table.${id}`) ?? "{}").seatToken as string, tableId);
}

describe("the web page", () => {
  it("creates an agonia table with three computer players and plays a hand to its end by clicking", async () => {
    const page = await rig.browser.context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (err) => errors.push(err.message));
    await page.goto(rig.server.webUrl);
    await page.getByLabel("Your name").first().fill("ann");
    await page.locator("#create-game").selectOption("agonia");
    await page.locator("#create-seats").fill("4");
    await page.locator("#create-seats").dispatchEvent("change");
    for (const seat of [1, 2, 3]) await page.locator(`#seat-${seat}`).selectOption("heuristic");
    await page.locator("#option-target_points").fill("0"); // one hand is the match
    await page.screenshot({ path: `${SHOTS}lobby.png`, fullPage: true });
    await page.locator("#create-submit").click();

    await page.waitForURL(/#\/t\//);
    const tableId = decodeURIComponent(new URL(page.url()).hash.replace("#/t/", ""));
    await page.waitForSelector('#main[data-status="playing"], #main[data-status="over"]');

    const server_ = new TrapoulaClient(rig.server.transport(), { seeds: false });
    server_.token = await seatToken(page, tableId);
    let clicks = 0;
    let checkedHand = false;
    for (let step = 0; step < 500; step++) {
      await page.waitForSelector('#main[data-my-turn="true"], #main[data-status="over"]', { timeout: 30_000 });
      const before = await shown(page);
      if (before.status === "over") break;
      if (!checkedHand) {
        // the table waits for this seat: the page's hand is the server's view of it
        const { version, view } = await server_.view(tableId);
        await page.waitForFunction((v) => Number(document.getElementById("main")!.dataset.version) >= v, version);
        const now = await shown(page);
        expect(now.version).toBe(version);
        expect(now.hand).toEqual(view.hand);
        expect(now.hand.length).toBeGreaterThan(0);
        await page.screenshot({ path: `${SHOTS}table-agonia.png`, fullPage: true });
        checkedHand = true;

        // a dropped connection: the page says so, and once back resumes where it was
        await rig.browser.context.setOffline(true);
        await expect.poll(() => page.locator("#connection").textContent(), { timeout: 30_000 }).toContain("reconnecting");
        await rig.browser.context.setOffline(false);
        await expect.poll(() => page.locator("#connection").textContent(), { timeout: 30_000 }).toBe("");
        await page.waitForSelector('#main[data-my-turn="true"]');
        expect((await shown(page)).hand).toEqual(view.hand);

        // a reload (a closed tab, opened again) comes back to the same seat and hand
        await page.reload();
        await page.waitForSelector('#main[data-my-turn="true"]');
        expect((await shown(page)).hand).toEqual(view.hand);

        // a spectator at phone width, from the shared link: no hand, no moves, the same seats
        const phone = await launch({ width: 390, height: 844 });
        try {
          const watcher = await phone.context.newPage();
          await watcher.goto(await page.locator(".share a").getAttribute("href") ?? "");
          await watcher.waitForSelector(`#main[data-version="${version}"]`);
          expect(await watcher.locator("#hand").count()).toBe(0);
          expect(await watcher.locator("#moves").count()).toBe(0);
          expect(await watcher.locator(".seat").count()).toBe(4);
          await expect.poll(() => watcher.locator("#turn").textContent()).toContain("Waiting for ann");
          const width = await watcher.evaluate(() => document.documentElement.scrollWidth);
          expect(width).toBeLessThanOrEqual(390); // nothing wider than the phone
          await watcher.screenshot({ path: `${SHOTS}table-agonia-phone.png`, fullPage: true });
        } finally {
          await phone.close();
        }
      }
      const clicked = (await shown(page)).version;
      const card = page.locator("#hand button.card.legal").first();
      if ((await card.count()) > 0) {
        await card.click();
        // a card with several moves (an ace: which suit) is picked, and shows them: take the first
        if ((await page.locator('#hand button.card[aria-pressed="true"]').count()) > 0) {
          await page.locator("#moves button.move").first().click();
        }
      } else {
        await page.locator("#moves button.move").first().click();
      }
      clicks++;
      await page.waitForFunction(
        (v) => Number(document.getElementById("main")!.dataset.version) > v && !document.getElementById("main")!.hasAttribute("aria-busy"),
        clicked,
        { timeout: 30_000 },
      );
    }
    expect(clicks).toBeGreaterThan(0);
    await page.waitForSelector("#match-over");
    await page.waitForSelector("#last-hand-points");

    // the totals and the hand's points shown are the server's
    const { view } = await server_.view(tableId);
    const totals = await page.locator(".seat [data-total]").evaluateAll((els) => els.map((e) => Number((e as HTMLElement).dataset.total)));
    expect(totals).toEqual(view.totals);
    const points = await page
      .locator("#last-hand-points [data-points]")
      .evaluateAll((els) => els.map((e) => ((e as HTMLElement).dataset.points === "" ? null : Number((e as HTMLElement).dataset.points))));
    expect(points).toEqual((view.last_hand as { hand_points: (number | null)[] }).hand_points);
    await page.screenshot({ path: `${SHOTS}table-agonia-over.png`, fullPage: true });

    // the finished match is in the lobby's history, and its record opens in the replay viewer
    await page.goto(rig.server.webUrl);
    const replay = page.locator(`a[data-replay="${tableId}"]`);
    for (let i = 0; i < 50 && (await replay.count()) === 0; i++) {
      await page.waitForTimeout(200);
      await page.reload();
    }
    await replay.click();
    await page.waitForSelector('#verdict[data-verified="true"]');
    await page.locator("#replay-seat").selectOption("0");
    await page.locator("#replay-last").click();
    await page.waitForSelector('#main[data-seat="0"][data-position]:not([data-position="0"])');
    await page.screenshot({ path: `${SHOTS}replay-agonia.png`, fullPage: true });
    expect(errors).toEqual([]);
  });

  it("offers many plays as a form whose suit may be none (aces beside plain cards, R4.1, R5.1.2) and plays the one chosen", async () => {
    // seat 0 (first to play, S5.3) holds four aces and three diamonds on the up-card 3D: the
    // diamonds match its suit and the aces are wild (R4.1, R5.1.1), each played naming a suit or
    // none (R5.1.2): 3 + 4 x 5 = 23 plays, more than the page lists as buttons
    const hands = ["AC AD AH AS 4D 5D 6D", "3C 4C 6C 8H 9H TH JH"].map((hand) => hand.split(" "));
    const used = new Set([...hands.flat(), "3D"]);
    const stock = [..."CDHS"].flatMap((suit) => [..."23456789TJQKA"].map((rank) => rank + suit)).filter((card) => !used.has(card));
    const owner = new TrapoulaClient(rig.server.transport(), { seeds: false });
    const { tableId, ownerToken } = await owner.createTable("agonia", 2, { target_points: 0 }, { manualDeal: true });
    const ann = await owner.join(tableId, "ann", 0);
    await owner.join(tableId, "bob", 1);
    await owner.startMatch(tableId, ownerToken, { deal: { hands: hands.map((cards) => ({ cards })), starter: "3D", stock } });
    const seat = new TrapoulaClient(rig.server.transport(), { seeds: false });
    seat.token = ann.seatToken;
    const before = await seat.view(tableId);
    expect(before.version).toBe(9); // created, two seats taken, started, dealt, up-card turned, seat 0's turn
    expect((before.view.legal as { kind: string }[]).filter((c) => c.kind === "play")).toHaveLength(23);

    const page = await rig.browser.context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (err) => errors.push(err.message));
    await page.goto(rig.server.webUrl);
    await page.evaluate(
      ([id, token]) => localStorage.setItem(`trapoula.table.${id}`, JSON.stringify({ seat: 0, seatToken: token, name: "ann" })),
      [tableId, ann.seatToken] as const,
    );
    // to the table at once, the lobby still loading: what it loads later must not replace the table
    await page.goto(`${rig.server.webUrl}#/t/${encodeURIComponent(tableId)}`);
    await page.waitForSelector(`#main[data-my-turn="true"][data-version="${before.version}"]`);
    expect(await page.locator('#moves form.choice[data-kind="play"]').count()).toBe(1);
    const options = (select: string) => page.locator(`${select} option`).evaluateAll((els) => els.map((e) => e.textContent));
    expect(await options("#choice-play-card")).toEqual(["AC", "4D", "5D", "6D", "AD", "AH", "AS"]);
    expect(await options("#choice-play-suit")).toEqual(["none", "♣ clubs", "♦ diamonds", "♥ hearts", "♠ spades"]);
    await page.locator("#choice-play-card").selectOption('"4D"');
    expect(await options("#choice-play-suit")).toEqual(["none"]);
    await page.locator('#moves form.choice[data-kind="play"] button[type="submit"]').click();

    // 4D is played: CardPlayed and TurnStarted (versions 10 and 11), bob to move
    await page.waitForSelector('#main[data-version="11"][data-my-turn="false"]');
    // the page's watch is batched: 10 and 11 come in one message with the view after 11 only, and
    // the log names the seat of 10 from that view (TurnStarted, 11, is not logged)
    const played = page.locator('#log li[data-version="10"]');
    await played.waitFor();
    expect(await played.getAttribute("data-event")).toBe("CardPlayed");
    expect(await played.textContent()).toContain("ann: card played");
    const after = await seat.view(tableId);
    expect(after.version).toBe(11);
    expect([...(after.view.hand as string[])].sort()).toEqual(["5D", "6D", "AC", "AD", "AH", "AS"]);
    expect(await page.locator("#hand .card").evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.card))).toEqual(after.view.hand);
    expect(await page.locator('[role="alert"]').allTextContents()).toEqual([]);
    expect(errors).toEqual([]);
  });
});
