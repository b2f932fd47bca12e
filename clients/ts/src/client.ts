/**
 * A small typed helper over trapoula's TableService, spoken over the Connect protocol (the
 * generated client of `src/gen/` does the calls; the transport decides browser or Node.js).
 *
 *   const transport = createConnectTransport({ baseUrl: "http://127.0.0.1:8080" }); // @connectrpc/connect-web
 *   const ann = new TrapoulaClient(transport);
 *   const { tableId, ownerToken } = await ann.createTable("agonia", 2);
 *   await ann.join(tableId, "ann");
 *   await ann.addBot(tableId, "heuristic");
 *   await ann.startMatch(tableId, ownerToken);
 *   for await (const { version, view } of ann.watch(tableId)) {
 *     if (!myMove(view)) continue;
 *     await ann.act(tableId, view.legal![0]!, { viewVersion: version }).catch((err) => {
 *       if (!isStale(err)) throw err; // the table moved on: the next update brings a newer view
 *     });
 *   }
 *
 * One client holds one seat's token (the first `join` adopts it), as the Python client does.
 * Commands are a view's `legal` entries, sent verbatim as `Command.json`.  At tables that deal
 * from seeds the client gives its seat's own random seed (docs/shuffle.md 2a) by itself: after
 * joining, and before its first move after each deal while the view's `table.seed` shows the
 * seat has given none.  Errors are `ConnectError`s; `errorInfo(err)` reads their `reason`, and
 * `retryDelay(err)` the wait a limit per client asks for (RESOURCE_EXHAUSTED).
 */
import type { Client, Transport } from "@connectrpc/connect";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { create } from "@bufbuild/protobuf";
import type { JsonObject, MessageInitShape } from "@bufbuild/protobuf";
import { BinaryReader } from "@bufbuild/protobuf/wire";
import type { ActResponse, Event, View } from "./gen/trapoula/api/v1/table_pb.js";
import { ExplicitDealSchema, TableService } from "./gen/trapoula/api/v1/table_pb.js";

/** A view as the server sends it (`View.view_json`): the game's view, its `legal` commands, its `table` part. */
export type ViewJson = { legal?: CommandJson[]; acting?: number[]; seat?: number | null; table?: TablePart } & Record<
  string,
  unknown
>;
/** One command, as a view's `legal` list holds it: `{"kind": "play", "card": "7H"}`. */
export type CommandJson = { kind: string } & Record<string, unknown>;
/** The table's part of a view (docs/schemas/table.json): who sees it, the hand awaiting seeds, the turn clocks. */
export type TablePart = {
  viewer?: "seat" | "spectator" | "owner" | string;
  seat?: number | null;
  seed?: { hand: number; given?: number[] } | null;
  clock?: ClockPart | null;
} & Record<string, unknown>;
/** A table's turn clocks (docs/clock.md C6): the due seats' deadlines (RFC 3339, UTC) and each seat's bank left (s). */
export type ClockPart = {
  move_seconds: number;
  bank_seconds: number;
  policy: string;
  deadlines: { seat: number; deadline: string }[];
  banks: number[];
};

/** A version and what the caller sees at it (GetView; `event` is undefined there). */
export interface Update {
  /** The caller's version of the table (Event.version: a romis seat does not count others' withheld events). */
  version: number;
  /** The event that led to it (WatchTable), with its payload parsed. */
  event?: { name: string; payload: Record<string, unknown> };
  /** The caller's view after it. */
  view: ViewJson;
}

/** The reply of StartMatch and Act: the caller's view of the events the command caused, and the new view. */
export interface ActResult {
  version: number;
  events: { version: number; name: string; payload: Record<string, unknown> }[];
  view: ViewJson;
}

/** `google.rpc.ErrorInfo` of a trapoula error: `reason` (e.g. "stale_view", "not_your_turn"), domain, metadata. */
export interface ErrorInfo {
  reason: string;
  domain: string;
  metadata: Record<string, string>;
}

/** Options of the client. */
export interface ClientOptions {
  /** Give the seat's own random seed for every hand by itself (default true); false: only `giveSeed` gives one. */
  seeds?: boolean;
  /** How often `watch` opens the stream again after it broke (UNAVAILABLE, a lost connection) in a row; default 5. */
  watchRetries?: number;
  /** The player's identity token (a JWT from the app that embeds trapoula, docs/identity.md), sent
   * with `createTable` and `join`; a server configured with an identity key requires it. */
  identityToken?: string;
}

const RESUMABLE = new Set([Code.Unavailable, Code.Unknown, Code.Internal, Code.DeadlineExceeded]);

/** 64 lower-case hex digits from the platform's cryptographic random source (a GiveSeed seed). */
export function randomSeed(): string {
  const bytes = new Uint8Array(32);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A fresh id for a command or request (Act, StartMatch, JoinTable's request_id). */
export function newId(): string {
  return globalThis.crypto.randomUUID();
}

/** True when the match waits for the viewer's move: its seat is in `view.acting` (where the view
 * has it) and it has a legal command (mau_mau's `leave` may be open out of turn). */
export function myMove(view: ViewJson): boolean {
  const legal = (view.legal ?? []).length > 0;
  if (Array.isArray(view.acting)) {
    return legal && typeof view.seat === "number" && view.acting.includes(view.seat);
  }
  return legal;
}

/** The `ErrorInfo` of a failed call (from the error's details, as gRPC's `grpc-status-details-bin`
 * carries it), or undefined for an error that has none (a transport failure). */
export function errorInfo(err: unknown): ErrorInfo | undefined {
  const error = ConnectError.from(err);
  for (const detail of error.details) {
    if ("type" in detail && detail.type === "google.rpc.ErrorInfo") {
      return decodeErrorInfo(detail.value);
    }
  }
  return undefined;
}

/** True for an Act refused because the view it was chosen from is out of date (ABORTED
 * `stale_view`, or `conflict`: another command won the race): choose again from a newer view. */
export function isStale(err: unknown): boolean {
  const error = ConnectError.from(err);
  const reason = errorInfo(error)?.reason;
  return error.code === Code.Aborted && (reason === "stale_view" || reason === "conflict");
}

/** The wait, in seconds, that a refusal by a limit per client asks for before calling again (its
 * `google.rpc.RetryInfo`: RESOURCE_EXHAUSTED `rate_limited`, `too_many_tables`, `too_many_watches`;
 * docs/operations.md, Limits), or undefined when the error carries none.  The refused call ran
 * nothing: send it again after the delay. */
export function retryDelay(err: unknown): number | undefined {
  const error = ConnectError.from(err);
  for (const detail of error.details) {
    if ("type" in detail && detail.type === "google.rpc.RetryInfo") {
      return decodeRetryInfo(detail.value);
    }
  }
  return undefined;
}

/** Decode a serialised `google.rpc.RetryInfo` (retry_delay = 1, a Duration of seconds = 1 and
 * nanos = 2) into seconds. */
function decodeRetryInfo(bytes: Uint8Array): number {
  const reader = new BinaryReader(bytes);
  let seconds = 0;
  while (reader.pos < reader.len) {
    const [field, wireType] = reader.tag();
    if (field === 1) {
      const duration = new BinaryReader(reader.bytes());
      while (duration.pos < duration.len) {
        const [f, w] = duration.tag();
        if (f === 1) seconds += Number(duration.int64());
        else if (f === 2) seconds += duration.int32() / 1e9;
        else duration.skip(w);
      }
    } else reader.skip(wireType);
  }
  return seconds;
}

/** Decode a serialised `google.rpc.ErrorInfo` (reason = 1, domain = 2, metadata = 3). */
function decodeErrorInfo(bytes: Uint8Array): ErrorInfo {
  const reader = new BinaryReader(bytes);
  const info: ErrorInfo = { reason: "", domain: "", metadata: {} };
  while (reader.pos < reader.len) {
    const [field, wireType] = reader.tag();
    if (field === 1) info.reason = reader.string();
    else if (field === 2) info.domain = reader.string();
    else if (field === 3) {
      const entry = new BinaryReader(reader.bytes());
      let key = "";
      let value = "";
      while (entry.pos < entry.len) {
        const [f, w] = entry.tag();
        if (f === 1) key = entry.string();
        else if (f === 2) value = entry.string();
        else entry.skip(w);
      }
      info.metadata[key] = value;
    } else reader.skip(wireType);
  }
  return info;
}

function parse(text: string): Record<string, unknown> {
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

function viewOf(view: View | undefined): ViewJson {
  return view ? (parse(view.viewJson) as ViewJson) : {};
}

function eventOf(event: Event): { version: number; name: string; payload: Record<string, unknown> } {
  return { version: Number(event.version), name: event.name, payload: parse(event.payloadJson) };
}

/** The TableService client of one player: the generated client plus the seat's token, seeds and
 * a watch that resumes.  `service` is the generated client itself, for every other call. */
export class TrapoulaClient {
  /** The generated Connect client of TableService (every RPC, typed from the proto). */
  readonly service: Client<typeof TableService>;
  /** The seat's secret token (adopted by the first `join`), or the owner's, or none (a spectator). */
  token: string | undefined;
  readonly seeds: boolean;
  readonly watchRetries: number;
  /** `${table} ${hand}` of every seed given (or tried) by itself. */
  private readonly seeded = new Set<string>();
  /** table id -> the hand whose seed the last view showed owed by this seat. */
  private readonly owed = new Map<string, number>();
  /** table id -> the owner token of a table this client created (sent by `addBot` and `startMatch`:
   * only the owner adds bots and starts the match). */
  readonly ownerTokens = new Map<string, string>();
  readonly identityToken: string;

  constructor(transport: Transport, options: ClientOptions = {}) {
    this.service = createClient(TableService, transport);
    this.seeds = options.seeds ?? true;
    this.watchRetries = options.watchRetries ?? 5;
    this.identityToken = options.identityToken ?? "";
  }

  private headers(token = this.token): Record<string, string> {
    return token ? { authorization: `Bearer ${token}` } : {};
  }

  /** Create a table of `game` with `seats` seats and the game's `options` (its rules file, section 7);
   * the client keeps its owner token for `addBot` and `startMatch`.  A `private` table is not listed
   * and is joined with its `invitationCode`.  Throws INVALID_ARGUMENT (`unknown_game`, `bad_option`
   * ...), UNAUTHENTICATED (an identity token required or refused, docs/identity.md). */
  async createTable(
    game: string,
    seats: number,
    options: JsonObject = {},
    extra: { manualDeal?: boolean; firstDealer?: number; requestId?: string; private?: boolean } = {},
  ): Promise<{ tableId: string; ownerToken: string; invitationCode: string }> {
    const reply = await this.service.createTable({
      game,
      seats,
      options,
      manualDeal: extra.manualDeal ?? false,
      firstDealer: extra.firstDealer,
      requestId: extra.requestId ?? "",
      identityToken: this.identityToken,
      private: extra.private ?? false,
    });
    this.ownerTokens.set(reply.tableId, reply.ownerToken);
    return { tableId: reply.tableId, ownerToken: reply.ownerToken, invitationCode: reply.invitationCode };
  }

  /** Take a seat (`seat`, or the first free one); adopts its token when the client has none, and
   * gives the seat's seed for the first hand.  Retry-safe through one request id.
   * Throws NOT_FOUND, ALREADY_EXISTS (`seat_taken`, `table_full`, `already_started`), PERMISSION_DENIED
   * (`bad_invitation` at a private table without its code). */
  async join(
    tableId: string,
    name: string,
    seat?: number,
    invitationCode = "",
  ): Promise<{ seat: number; seatToken: string; queued: boolean }> {
    const reply = await this.service.joinTable({
      tableId,
      name,
      seat,
      requestId: newId(),
      identityToken: this.identityToken,
      invitationCode,
    });
    this.token ??= reply.seatToken;
    if (this.seeds && reply.seat >= 0 && !reply.queued) await this.seedOnce(tableId, reply.seatToken, 0);
    return { seat: reply.seat, seatToken: reply.seatToken, queued: reply.queued };
  }

  /** Seat a computer player of `level` (ListGames names each game's levels); returns its seat.  Only
   * the owner adds bots: sends `token`, else the owner token of a table this client created, else
   * its own (PERMISSION_DENIED `owner_only` otherwise). */
  async addBot(
    tableId: string,
    level = "heuristic",
    seat?: number,
    name = "",
    token = this.ownerTokens.get(tableId) ?? this.token,
  ): Promise<number> {
    return (await this.service.addBot({ tableId, level, seat, name }, { headers: this.headers(token) })).seat;
  }

  /** Start the match (every seat taken) with the owner's token: `token`, else the owner token of a
   * table this client created, else its own (PERMISSION_DENIED `owner_only` for a seat's).
   * `deal`: an explicit deal, only at a table created with `manualDeal`. */
  async startMatch(
    tableId: string,
    token = this.ownerTokens.get(tableId) ?? this.token,
    options: { commandId?: string; deal?: MessageInitShape<typeof ExplicitDealSchema> } = {},
  ): Promise<ActResult> {
    const deal = options.deal ? create(ExplicitDealSchema, options.deal) : undefined;
    const reply = await this.service.startMatch(
      { tableId, commandId: options.commandId ?? newId(), deal },
      { headers: this.headers(token) },
    );
    return this.result(tableId, reply);
  }

  /** Play `command`, one entry of the view's `legal` list sent verbatim (as `Command.json`).
   * `viewVersion`: the version of the view it was chosen from, so that a command the table moved
   * past is ABORTED `stale_view` (choose again) while an illegal one stays FAILED_PRECONDITION.
   * Gives the seat's owed seed first (see the module comment). */
  async act(
    tableId: string,
    command: CommandJson,
    options: { viewVersion?: number; commandId?: string } = {},
  ): Promise<ActResult> {
    await this.pay(tableId);
    const reply = await this.service.act(
      {
        tableId,
        commandId: options.commandId ?? newId(),
        command: { kind: { case: "json", value: JSON.stringify(command) } },
        viewVersion: options.viewVersion === undefined ? undefined : BigInt(options.viewVersion),
      },
      { headers: this.headers() },
    );
    return this.result(tableId, reply);
  }

  /** Give the seat's own seed (64 lower-case hex digits; default a random one) for `hand` (0: the
   * hand awaiting seeds); returns the hand.  Throws FAILED_PRECONDITION `seed_too_late`, `seed_given`, `no_seeds`. */
  async giveSeed(tableId: string, seed = randomSeed(), hand = 0, token = this.token): Promise<number> {
    return (await this.service.giveSeed({ tableId, seed, hand }, { headers: this.headers(token) })).hand;
  }

  /** The caller's current view (a spectator's without a token). */
  async view(tableId: string): Promise<Update> {
    const reply = await this.service.getView({ tableId }, { headers: this.headers() });
    const update = { version: Number(reply.view?.version ?? 0), view: viewOf(reply.view) };
    this.seen(tableId, update.view);
    return update;
  }

  /** A game's JSON Schema (GetGameSchema): its commands, events, views and options. */
  async gameSchema(game: string): Promise<Record<string, unknown>> {
    return parse((await this.service.getGameSchema({ game })).schemaJson);
  }

  /** The caller's events after `fromVersion`, each with the view after it, then live; ends when the
   * match is over.  A stream that breaks (UNAVAILABLE: the server stopping; a lost connection) is
   * opened again from the last version received, so nothing is missed nor repeated, up to
   * `watchRetries` times in a row.  `signal` cancels it.  `batch` (WatchTableRequest.batch): the
   * server sends the events ready together in one message with the view after the last only;
   * every event is still yielded, once and in order, and an update followed by another of the
   * same message has an empty view (`{}`). */
  async *watch(
    tableId: string,
    fromVersion = 0,
    signal?: AbortSignal,
    options: { batch?: boolean } = {},
  ): AsyncGenerator<Update> {
    let after = fromVersion;
    let failures = 0;
    for (;;) {
      try {
        const stream = this.service.watchTable(
          { tableId, fromVersion: BigInt(after), batch: options.batch ?? false },
          { headers: this.headers(), signal },
        );
        for await (const item of stream) {
          failures = 0;
          const events = item.events.length > 0 ? item.events : item.event ? [item.event] : [];
          if (events.length === 0) {
            const update: Update = { version: after, view: viewOf(item.view) };
            this.seen(tableId, update.view);
            yield update;
            continue;
          }
          for (const [i, each] of events.entries()) {
            const event = eventOf(each);
            const last = i === events.length - 1;
            const update: Update = {
              version: event.version,
              event: { name: event.name, payload: event.payload },
              view: last ? viewOf(item.view) : {},
            };
            after = update.version;
            if (last) this.seen(tableId, update.view);
            yield update;
          }
        }
        return;
      } catch (err) {
        const error = ConnectError.from(err);
        if (signal?.aborted || !RESUMABLE.has(error.code) || ++failures > this.watchRetries) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** failures));
      }
    }
  }

  /** Note what a view this client received says of its seat's seed (`table.seed`): a hand awaiting
   * seeds for which the seat gave none is owed, and given before the seat's next `act`. */
  seen(tableId: string, view: ViewJson): void {
    if (!this.seeds) return;
    const table = view.table;
    if (!table || table.viewer !== "seat") return;
    const part = table.seed;
    if (part && typeof part.hand === "number" && !(part.given ?? []).includes(table.seat as number)) {
      this.owed.set(tableId, part.hand);
    } else {
      this.owed.delete(tableId);
    }
  }

  private async pay(tableId: string): Promise<void> {
    const hand = this.owed.get(tableId);
    if (hand === undefined || !this.token) return;
    this.owed.delete(tableId);
    await this.seedOnce(tableId, this.token, hand);
  }

  private async seedOnce(tableId: string, token: string, hand: number): Promise<void> {
    const key = `${tableId} ${token} ${hand}`;
    if (this.seeded.has(key)) return;
    this.seeded.add(key);
    try {
      await this.giveSeed(tableId, randomSeed(), hand, token);
    } catch (err) {
      // The hand was dealt meanwhile (seed_too_late), or the table deals explicitly (no_seeds):
      // the deal counts this seat's seed as empty; nothing to do.
      if (ConnectError.from(err).code !== Code.FailedPrecondition) throw err;
    }
  }

  private result(tableId: string, reply: ActResponse): ActResult {
    const view = viewOf(reply.view);
    this.seen(tableId, view);
    return { version: Number(reply.version), events: reply.events.map(eventOf), view };
  }
}
