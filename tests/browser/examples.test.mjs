// examples/main-thread in each browser engine (harness.mjs): the page's main
// thread locks a Mutex a pthread holds for 1 s, with Asyncify, with JSPI
// (where the Emscripten built that page and the engine has it) and with the
// async API, and keeps painting. WSYNC_EXAMPLES_BUILD_DIR picks the examples
// build (by default the wasm tree's; scripts/test.sh also runs it on the
// examples built against an installed wsync).
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import { engine, openPage, root, servedBrowser, wasmBuild } from "./harness.mjs";

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

for (const build of ["asyncify", "jspi"]) {
  const suspension = build === "jspi" ? "JSPI" : "Asyncify";
  test(`examples/main-thread, ${suspension} build: both ways of locking wait about 1 s while the page keeps painting`, async (t) => {
    if (build === "jspi" && !engine.jspi) {
      return t.skip(`${engine.label} has no JSPI: a -sJSPI program cannot start there (docs/api.md)`);
    }
    if (build === "jspi" && !existsSync(path.join(pageDir, "main_thread_jspi.js"))) {
      return t.skip("this Emscripten predates the engines' JSPI API (3.1.61): no -sJSPI build");
    }
    const { page, pageErrors } = await openPage(
      ctx.browser,
      `${ctx.server.url}${build === "jspi" ? "?build=jspi" : ""}`,
    );
    await page.waitFor(() => document.getElementById("log").textContent.includes("ready"));
    assert.equal(await page.text("#suspension"), suspension);
    // The page's own frame rate at rest, over the same second: the yardstick
    // for "kept painting" (as main_thread.test.mjs's). It also lets a cold
    // engine settle: Firefox 140 paints about 35 frames in its first second.
    const framesNow = () => page.evaluate(() => Number(document.getElementById("frames").value));
    const idleStart = await framesNow();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const idleFps = (await framesNow()) - idleStart;
    for (const [button, what] of [
      ["#sync", `lock() under ${suspension}`],
      ["#async", "lock_async()"],
    ]) {
      await page.click(button);
      const text = await page.waitFor(
        (w) =>
          document
            .getElementById("log")
            .textContent.split("\n")
            .find((l) => l.startsWith(w + ":")),
        what,
        { timeout: 10_000 },
      );
      console.log(`examples/main-thread: ${text}`);
      const [, ms, frames] = /waited (\d+) ms, (\d+) frames painted meanwhile/.exec(text).map(Number);
      assert.ok(ms >= 950, `${what} really waited (${ms} ms)`);
      assert.ok(
        frames >= ((idleFps * ms) / 1000) * 0.5,
        `${what}: the page kept painting (${frames} frames in ${ms} ms, ${idleFps} a second at rest)`,
      );
    }
    assert.deepEqual(pageErrors, []);
    await page.close();
  });
}
