// The same C++ program built as current apps load wasm: MODULARIZE with
// EXPORT_ES6, a factory whose promise resolves to the Module. Every at()
// takes that Module as it is, with no EXPORTED_RUNTIME_METHODS of the app's.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import path from "node:path";
import { Mutex, Semaphore, WaitGroup } from "../../js/wsync.mjs";
import { wasmTestProgram } from "./helpers.mjs";

const modulePath = wasmTestProgram("www/wsync_interop_es6.mjs");
// 3.1.6's ES6 output still assumes CommonJS when it runs in Node (__dirname,
// require) and looks its .wasm up by a file: URL that fs cannot open; an app
// on 3.1.6 in Node provides these, as here. Current output needs none of it,
// and is unaffected by them.
globalThis.__dirname = path.dirname(modulePath);
globalThis.require = createRequire(modulePath);
const { default: createInterop } = await import(pathToFileURL(modulePath).href);
const loading = createInterop({ locateFile: (file) => path.join(path.dirname(modulePath), file) });
const Module = await loading;
after(() => Module.PThread.terminateAllThreads());

test("an ES6 factory's Module: at() takes it; a Promise of it is refused with what to do", async () => {
  assert.ok(Module.wsyncMemory instanceof WebAssembly.Memory, "wsync's pre-js gives Module its memory");
  assert.ok(Module.wsyncMemory.buffer instanceof SharedArrayBuffer);
  assert.throws(() => WaitGroup.at(loading, Module._interop_wait_group()), {
    name: "TypeError",
    message: /^wsync: WaitGroup.at\(\) got a Promise: await the Emscripten module factory first/,
  });
  const wg = WaitGroup.at(Module, Module._interop_wait_group());
  Module._interop_square_cube(7, 2, 30);
  assert.equal(await wg.waitAsync(30_000), true);
  const heap = new Int32Array(Module.wsyncMemory.buffer);
  const results = Module._interop_results() >> 2;
  assert.deepEqual([heap[results], heap[results + 1]], [49, 8]);
});

test("an ES6 factory's Module: a JS Mutex and C++ pthreads keep one exact count", async () => {
  const mutexPtr = Module._interop_mutex();
  const counterPtr = Module._interop_counter();
  const heap = new Int32Array(Module.wsyncMemory.buffer);
  const iterations = 5000;
  heap[counterPtr >> 2] = 0;
  const m = Mutex.at(Module, mutexPtr);
  Module._interop_increments(2, iterations);
  for (let i = 0; i < iterations; ++i) {
    await m.lockAsync();
    heap[counterPtr >> 2] += 1;
    m.unlock();
  }
  assert.equal(await WaitGroup.at(Module, Module._interop_wait_group()).waitAsync(30_000), true);
  assert.equal(heap[counterPtr >> 2], 3 * iterations);
  const sem = Semaphore.at(Module, Module._interop_semaphore());
  assert.equal(sem.max, 8, "the C++ constructor's words, read through the Module");
});
