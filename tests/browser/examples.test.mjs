// examples/main-thread in real Chromium: the page's main thread locks a Mutex
// a pthread holds for 1 s, with Asyncify and with the async API, and keeps
// painting. WSYNC_EXAMPLES_BUILD_DIR picks the examples build (by default the
// wasm tree's; scripts/test.sh also runs it on the examples built against an
// installed wsync).
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import { openPage, root, servedBrowser, wasmBuild } from "./harness.mjs";

const examples = path.resolve(root, process.env.WSYNC_EXAMPLES_BUILD_DIR ?? path.join(wasmBuild, "examples"));
const pageDir = path.join(examples, "main-thread");

const ctx = servedBrowser(() => {
  if (!existsSync(path.join(pageDir, "main_thread.js"))) {
    throw new Error(
      `wsync: ${pageDir}/main_thread.js is missing: build the examples first (bash scripts/test.sh does)`,
    );
  }
  return pageDir;
});

test("examples/main-thread: both ways of locking wait about 1 s while the page keeps painting", async () => {
  const { page, pageErrors } = await openPage(ctx.browser, ctx.server.url);
  await page.waitForFunction(() => document.getElementById("log").textContent.includes("ready"));
  for (const [button, what] of [
    ["#sync", "lock() under Asyncify"],
    ["#async", "lock_async()"],
  ]) {
    await page.click(button);
    const line = await page.waitForFunction(
      (w) =>
        document
          .getElementById("log")
          .textContent.split("\n")
          .find((l) => l.startsWith(w + ":")),
      what,
      { timeout: 10_000 },
    );
    const text = await line.jsonValue();
    console.log(`examples/main-thread: ${text}`);
    const [, ms, frames] = /waited (\d+) ms, (\d+) frames painted meanwhile/.exec(text).map(Number);
    assert.ok(ms >= 950, `${what} really waited (${ms} ms)`);
    assert.ok(frames >= 30, `${what}: the page kept painting (${frames} frames in ${ms} ms)`);
  }
  assert.deepEqual(pageErrors, []);
  await page.close();
});
