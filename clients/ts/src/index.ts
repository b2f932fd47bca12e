/**
 * trapoula's TypeScript client: the messages and the TableService descriptor generated from the
 * protos (`./gen/`, by @bufbuild/protoc-gen-es) and the helper of `./client.ts`.  Pair it with a
 * Connect transport: `@connectrpc/connect-web` in a browser, `@connectrpc/connect-node` in Node.js.
 */
export * from "./gen/trapoula/api/v1/table_pb.js";
export * from "./client.js";
