// examples/main-thread in real Chromium: the page's main thread locks a Mutex
// a pthread holds for 1 s, with Asyncify and with the async API, and keeps
// painting. WSYNC_EXAMPLES_BUILD_DIR picks the examples build (by default the
// wasm tree's; scripts/test.sh also runs it on the examples built against an
// installed wsync).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import { launchBrowser, openPage, root, startServer, stopAll, wasmBuild } from "./harness.mjs";

const examples = path.resolve(root, process.env.WSYNC_EXAMPLES_BUILD_DIR ?? path.join(wasmBuild, "examples"));
const page_dir = path.join(examples, "main-thread");

let server;
let browser;
before(async () => {
  if (!existsSync(path.join(page_dir, "main_thread.js"))) {
    throw new Error(
      `wsync: ${page_dir}/main_thread.js is missing: build the examples first (bash scripts/test.sh does)`,
    );
  }
  server = await startServer(page_dir);
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await stopAll(); // the server, and any a failed test left running
});

test("examples/main-thread: both ways of locking wait about 1 s while the page keeps painting", async () => {
  const { page, pageErrors } = await openPage(browser, server.url);
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
