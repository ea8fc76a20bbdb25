// A MODULARIZE + EXPORT_ES6 program on a page, as current apps load wasm:
// the page imports the factory, awaits the Module and hands it to wsync.mjs
// as it is (no EXPORTED_RUNTIME_METHODS). The program is tests/js/interop.cpp.
import { test } from "node:test";
import assert from "node:assert/strict";
import { builtDir, openPage, servedBrowser } from "./harness.mjs";

const ctx = servedBrowser(() => builtDir("www"));

test("an ES6 factory's Module on a page: the main thread awaits C++ pthreads through at(Module)", async () => {
  const { page, pageErrors } = await openPage(ctx.browser, `${ctx.server.url}blank.html`);
  const outcome = await page.evaluate(async () => {
    const { default: createInterop } = await import("./wsync_interop_es6.mjs");
    const { Mutex, WaitGroup } = await import("./wsync.mjs");
    const loading = createInterop();
    let promiseError;
    try {
      WaitGroup.at(loading, 0);
    } catch (e) {
      promiseError = e.message;
    }
    const Module = await loading;
    const heap = new Int32Array(Module.wsyncMemory.buffer);
    const wg = WaitGroup.at(Module, Module._interop_wait_group());
    Module._interop_square_cube(7, 2, 30);
    const squared = await wg.waitAsync(30_000);
    const results = Module._interop_results() >> 2;

    // The page's main thread and two C++ pthreads under one C++ Mutex.
    const iterations = 2000;
    const counter = Module._interop_counter() >> 2;
    heap[counter] = 0;
    const m = Mutex.at(Module, Module._interop_mutex());
    Module._interop_increments(2, iterations);
    for (let i = 0; i < iterations; ++i) {
      await m.lockAsync();
      heap[counter] += 1;
      m.unlock();
    }
    const counted = await wg.waitAsync(30_000);
    return {
      isolated: crossOriginIsolated,
      memory: Module.wsyncMemory instanceof WebAssembly.Memory,
      promiseError,
      squared,
      results: [heap[results], heap[results + 1]],
      counted,
      count: heap[counter],
      mutexWord: heap[Module._interop_mutex() >> 2],
    };
  });
  assert.equal(outcome.isolated, true);
  assert.equal(outcome.memory, true, "wsync's pre-js gave the Module its memory");
  assert.match(
    outcome.promiseError,
    /^wsync: WaitGroup.at\(\) got a Promise: await the Emscripten module factory first/,
  );
  assert.equal(outcome.squared, true);
  assert.deepEqual(outcome.results, [49, 8]);
  assert.equal(outcome.counted, true);
  assert.equal(outcome.count, 3 * 2000, "every increment under the one Mutex");
  assert.equal(outcome.mutexWord, 0, "the Mutex is unlocked at the end");
  assert.deepEqual(pageErrors, []);
  await page.close();
});
