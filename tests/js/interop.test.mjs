// JS and C++ on the same words: a wasm module (tests/js/interop.cpp, built by
// the wasm CMake tree) whose pthreads share a WaitGroup and a Mutex with JS.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { Mutex, WaitGroup } from "../../js/wsync.mjs";
import { runWorker } from "./helpers.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const build = path.resolve(root, process.env.WSYNC_WASM_BUILD_DIR ?? "build/wasm");
const modulePath = path.join(build, "tests", "wsync_interop.js");
if (!existsSync(modulePath)) {
  throw new Error(`wsync: ${modulePath} is missing: build the wasm tree first (bash scripts/test.sh does)`);
}

// 3.1.6 predates Node's global fetch: its loader must read the file itself.
delete globalThis.fetch;
const Module = createRequire(import.meta.url)(modulePath);
await new Promise((resolve) => {
  if (Module.calledRun) resolve();
  else Module.onRuntimeInitialized = resolve;
});
after(() => Module.PThread.terminateAllThreads());

test("C++ pthreads square and cube; the JS main thread awaits their WaitGroup", async () => {
  const wg = WaitGroup.at(Module.HEAP32, Module._interop_wait_group());
  Module._interop_square_cube(3, 4, 50);
  assert.equal(wg.count, 2);
  const start = performance.now();
  assert.equal(await wg.waitAsync(), true);
  assert.ok(performance.now() - start >= 40, "the main thread really waited");
  const results = Module._interop_results() >> 2;
  assert.equal(Module.HEAP32[results], 9);
  assert.equal(Module.HEAP32[results + 1], 64);
  assert.equal(Module.HEAP32[Module._interop_wait_group() >> 2], 0);
});

test("JS workers and C++ pthreads keep one exact count under one Mutex", async () => {
  const memory = Module.wasmMemory;
  const mutexPtr = Module._interop_mutex();
  const counterPtr = Module._interop_counter();
  const iterations = 20000;
  Module.HEAP32[counterPtr >> 2] = 0;
  const wg = WaitGroup.at(memory, Module._interop_wait_group());
  Module._interop_increments(3, iterations); // three C++ pthreads
  const workers = [0, 1, 2].map(() =>
    runWorker("incrementAt", memory, { mutexPtr, counterPtr, iterations }),
  );
  const m = Mutex.at(memory, mutexPtr);
  for (let i = 0; i < iterations; ++i) {
    await m.lockAsync(); // and the JS main thread
    Module.HEAP32[counterPtr >> 2] += 1;
    m.unlock();
  }
  await Promise.all(workers);
  assert.equal(await wg.waitAsync(30_000), true);
  assert.equal(Module.HEAP32[counterPtr >> 2], 7 * iterations);
  assert.equal(Module.HEAP32[mutexPtr >> 2], 0, "Mutex back to UNLOCKED");
});

test("a JS timed wait on a C++ WaitGroup times out while the pthreads work", async () => {
  const wg = WaitGroup.at(Module.HEAP32, Module._interop_wait_group());
  Module._interop_square_cube(5, 6, 200);
  assert.equal(await wg.waitAsync(20), false);
  assert.equal(await wg.waitAsync(30_000), true);
  const results = Module._interop_results() >> 2;
  assert.deepEqual([Module.HEAP32[results], Module.HEAP32[results + 1]], [25, 216]);
});
