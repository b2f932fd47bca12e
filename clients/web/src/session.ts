/**
 * The page's connection to its own server (the Connect endpoint that served it: same origin) and
 * what the browser remembers of each table it sits at: the seat token, the owner token, the name.
 * They live in localStorage, so a reload or a dropped connection comes back to the same seat.
 */
import { createConnectTransport } from "@connectrpc/connect-web";
import type { Transport } from "@connectrpc/connect";
import { TrapoulaClient } from "@trapoula/client";

/** The server's address: the page's own origin, or VITE_TRAPOULA_URL under `npm run dev`. */
export const baseUrl: string = (import.meta.env.VITE_TRAPOULA_URL as string | undefined) ?? window.location.origin;

export const transport: Transport = createConnectTransport({ baseUrl });

/** A client without any token: the lobby's calls, a spectator's view. */
export const anonymous = new TrapoulaClient(transport, { seeds: false });

/** What this browser holds of one table. */
export interface Seat {
  seat?: number;
  seatToken?: string;
  ownerToken?: string;
  name?: string;
  invitationCode?: string;
}

const KEY = "trapoula.table.";

export function seatOf(tableId: string): Seat {
  try {
    return JSON.parse(localStorage.getItem(KEY + tableId) ?? "{}") as Seat;
  } catch {
    return {};
  }
}

export function remember(tableId: string, seat: Seat): void {
  localStorage.setItem(KEY + tableId, JSON.stringify({ ...seatOf(tableId), ...seat }));
}

export function forget(tableId: string): void {
  localStorage.removeItem(KEY + tableId);
}

/** The player's display name (the last one typed). */
export function playerName(): string {
  return localStorage.getItem("trapoula.name") ?? "";
}

export function setPlayerName(name: string): void {
  localStorage.setItem("trapoula.name", name);
}

/** A client acting for this browser at `tableId`: its seat token (a spectator's client without
 * one) and its owner token if it created the table. */
export function clientFor(tableId: string): TrapoulaClient {
  const seat = seatOf(tableId);
  const client = new TrapoulaClient(transport);
  client.token = seat.seatToken;
  if (seat.ownerToken) client.ownerTokens.set(tableId, seat.ownerToken);
  return client;
}

/** The address of a table's page, to share; a private table's carries its invitation code. */
export function tableLink(tableId: string, invitationCode = ""): string {
  const code = invitationCode ? `/${encodeURIComponent(invitationCode)}` : "";
  return `${window.location.origin}${window.location.pathname}#/t/${encodeURIComponent(tableId)}${code}`;
}
