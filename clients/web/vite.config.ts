// The page is built into the Python package (service/trapoula/service/web/), which the trapoula
// server serves at `/` of its Connect endpoint; the wheel carries it.  `npm run dev` serves it
// with Vite, calling a server given by VITE_TRAPOULA_URL (its --cors-origins must allow Vite's origin).
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const client = fileURLToPath(new URL("../ts/src/index.ts", import.meta.url));
const out = fileURLToPath(new URL("../../service/trapoula/service/web", import.meta.url));

export default defineConfig({
  base: "./",
  resolve: {
    // The TypeScript client's source (clients/ts/src, with the code it generates from the protos);
    // its imports of the Connect and protobuf runtimes resolve to this package's copies.
    alias: { "@trapoula/client": client },
    dedupe: ["@bufbuild/protobuf", "@connectrpc/connect"],
  },
  build: {
    outDir: out,
    emptyOutDir: true,
    target: "es2022",
    sourcemap: false,
    assetsInlineLimit: 0,
  },
  server: { fs: { allow: [".", "../ts"] } },
});
