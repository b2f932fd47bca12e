// The browser tests: a real trapoula server serving the built page, driven in Debian's headless
// Chromium by playwright-core (test/browser.ts); one file at a time.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: { "@trapoula/client": fileURLToPath(new URL("../ts/src/index.ts", import.meta.url)) },
    dedupe: ["@bufbuild/protobuf", "@connectrpc/connect"],
  },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 180_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
});
