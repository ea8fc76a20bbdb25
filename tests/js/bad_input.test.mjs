// The bad-input matrix, for every class at once: the wrong memory, the wrong
// typed array, misaligned or out-of-bounds words, words in no state, and no
// SharedArrayBuffer at all. Each case throws its exact error and leaves the
// words as they were. (Per-class misuse, such as a negative WaitGroup
// counter, is in each class's own test file.)
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { Barrier, CondVar, Latch, Mutex, Once, Semaphore, WaitGroup, threadSupportProblem } from "../../js/wsync.mjs";
import { sharedInts } from "./helpers.mjs";

const CLASSES = [Mutex, WaitGroup, CondVar, Semaphore, Latch, Barrier, Once];
const moduleUrl = new URL("../../js/wsync.mjs", import.meta.url).href;

// Every word of `i32`, to compare before and after.
const snapshot = (i32) => Array.from(i32, (_, i) => Atomics.load(i32, i));

test("every class refuses what is not an Int32Array, naming what it got", () => {
  const shared = new SharedArrayBuffer(64);
  const wrong = [
    [[0, 0, 0], "Array"],
    [new Uint32Array(shared), "Uint32Array"],
    [new Int16Array(shared), "Int16Array"],
    [new BigInt64Array(shared), "BigInt64Array"],
    [new Float64Array(shared), "Float64Array"],
    [new DataView(shared), "DataView"],
    [shared, "SharedArrayBuffer"],
    [null, "null"],
    [undefined, "undefined"],
    [7, "7"],
  ];
  for (const Class of CLASSES) {
    for (const [value, name] of wrong) {
      assert.throws(() => new Class(value, 0), {
        name: "TypeError",
        message: `wsync: ${Class.name} needs an Int32Array, got ${name}`,
      });
      assert.throws(() => Class.initialize(value, 0, 1), {
        name: "TypeError",
        message: `wsync: ${Class.name} needs an Int32Array, got ${name}`,
      });
    }
  }
});

test("every class refuses memory that is not shared", () => {
  for (const Class of CLASSES) {
    for (const i32 of [new Int32Array(8), new Int32Array(new ArrayBuffer(32), 4)]) {
      assert.throws(() => new Class(i32, 0), {
        name: "TypeError",
        message:
          `wsync: ${Class.name} needs an Int32Array on shared memory (a SharedArrayBuffer or a shared ` +
          "WebAssembly.Memory), got one on ArrayBuffer",
      });
    }
  }
});

test("every class refuses an index whose words are not all inside the array", () => {
  const i32 = sharedInts(8);
  for (const Class of CLASSES) {
    const last = 8 - Class.NUMINTS;
    new Class(i32, last); // the last valid one
    for (const index of [last + 1, -1, 1.5, NaN, Infinity, "0", null, 2 ** 53]) {
      const shown = typeof index === "string" ? JSON.stringify(index) : String(index);
      assert.throws(() => new Class(i32, index), {
        name: "RangeError",
        message: `wsync: ${Class.name} index ${shown} is out of range 0..${last}`,
      });
    }
  }
});

test("at() refuses what is not memory, and misaligned, negative or out-of-bounds offsets", () => {
  const memory = new WebAssembly.Memory({ initial: 1, maximum: 1, shared: true });
  const bytes = memory.buffer.byteLength;
  for (const Class of CLASSES) {
    const before = snapshot(new Int32Array(memory.buffer));
    for (const value of [{}, null, 5, "HEAP32", new ArrayBuffer(64)]) {
      const shown =
        value === null ? "null" : typeof value === "object" ? value.constructor.name : JSON.stringify(value);
      assert.throws(() => Class.at(value, 0), {
        name: "TypeError",
        message:
          `wsync: ${Class.name}.at() needs an Emscripten Module linked with wsync, a WebAssembly.Memory, ` +
          `a SharedArrayBuffer or a typed array, got ${shown}`,
      });
    }
    // Emscripten Modules: one linked with wsync is taken; one that exposes
    // no memory, one still loading (a Promise) and one whose runtime has not
    // made its memory are refused with what to do.
    const linked = {
      _main() {},
      get wsyncMemory() {
        return memory;
      },
    };
    assert.equal(Class.at(linked, 0).i32.buffer, memory.buffer);
    assert.equal(Class.at({ calledRun: true, wasmMemory: memory }, 0).i32.buffer, memory.buffer);
    assert.throws(() => Class.at({ _main() {}, calledRun: true }, 0), {
      name: "TypeError",
      message:
        `wsync: ${Class.name}.at() got an Emscripten Module that exposes no memory: link the program with wsync ` +
        "(the CMake target wsync::wsync, pkg-config wsync, or em++ --use-port=<prefix>/share/wsync/wsync.py), " +
        "which adds Module.wsyncMemory",
    });
    assert.throws(() => Class.at(Promise.resolve(linked), 0), {
      name: "TypeError",
      message:
        `wsync: ${Class.name}.at() got a Promise: await the Emscripten module factory first ` +
        "(Mutex.at(await factory(), ptr))",
    });
    assert.throws(() => Class.at({ wsyncMemory: undefined }, 0), {
      name: "TypeError",
      message:
        `wsync: ${Class.name}.at() got an Emscripten Module whose memory does not exist yet: ` +
        "wait for its runtime (the factory's promise, or Module.onRuntimeInitialized)",
    });
    // A Module built without -pthread: its memory is not shared.
    const unshared = { _main() {}, wsyncMemory: new WebAssembly.Memory({ initial: 1 }) };
    assert.throws(() => Class.at(unshared, 0), {
      name: "TypeError",
      message:
        `wsync: ${Class.name} needs an Int32Array on shared memory (a SharedArrayBuffer or a shared ` +
        "WebAssembly.Memory), got one on ArrayBuffer",
    });
    for (const offset of [2, 4097, 6]) {
      assert.throws(() => Class.at(memory, offset), {
        name: "RangeError",
        message: `wsync: ${Class.name}.at() byte offset ${offset} is not 4-byte aligned`,
      });
    }
    for (const offset of [-4, 1.5, NaN, "8"]) {
      const shown = typeof offset === "string" ? JSON.stringify(offset) : String(offset);
      assert.throws(() => Class.at(memory, offset), {
        name: "RangeError",
        message: `wsync: ${Class.name}.at() byte offset ${shown} is not a valid address`,
      });
    }
    const past = bytes - 4 * Class.NUMINTS + 4;
    assert.throws(() => Class.at(memory, past), {
      name: "RangeError",
      message: `wsync: ${Class.name}.at() byte offset ${past} is outside the memory (${bytes} bytes)`,
    });
    Class.at(memory, bytes - 4 * Class.NUMINTS); // the last valid one
    Class.at(new Int16Array(memory.buffer), 0); // any view of the memory will do
    assert.deepEqual(snapshot(new Int32Array(memory.buffer)), before, `${Class.name}: nothing stored`);
  }
});

test("words in no state are reported, never waited on, and left as found", async () => {
  const i32 = sharedInts(3);
  const expectCorrupted = async (setup, calls, message) => {
    setup();
    const before = snapshot(i32);
    for (const call of calls) {
      // Sync throw or async rejection: either way the same error, at once.
      await assert.rejects(async () => call(), { message });
    }
    assert.deepEqual(snapshot(i32), before, message);
    i32.fill(0);
  };

  const m = new Mutex(i32, 0);
  await expectCorrupted(
    () => (i32[0] = 5),
    [() => m.lock(), () => m.lockAsync(), () => m.unlock(), () => m.lock(10)],
    "wsync: corrupted Mutex word (5)",
  );
  await expectCorrupted(() => (i32[0] = -1), [() => m.lock(), () => m.unlock()], "wsync: corrupted Mutex word (-1)");
  // 3 is no state (STARVING is 6 = CONTENDED | HANDOFF), nor are 5 and 7.
  await expectCorrupted(() => (i32[0] = 3), [() => m.lock(), () => m.unlock()], "wsync: corrupted Mutex word (3)");
  await expectCorrupted(() => (i32[0] = 7), [() => m.lock(), () => m.unlock()], "wsync: corrupted Mutex word (7)");

  const once = new Once(i32, 0);
  await expectCorrupted(
    () => (i32[0] = 4),
    [() => once.callOnce(() => {}), () => once.callOnceAsync(() => {})],
    "wsync: corrupted Once word (4)",
  );

  const sem = new Semaphore(i32, 0);
  await expectCorrupted(
    () => {
      Semaphore.initialize(i32, 0, 0, 3);
      i32[0] = -2;
    },
    [() => sem.tryAcquire(), () => sem.acquire(), () => sem.acquireAsync(), () => sem.release()],
    "wsync: corrupted Semaphore words (count -2, max 3)",
  );
  await expectCorrupted(
    () => {
      Semaphore.initialize(i32, 0, 0, 3);
      i32[0] = 5;
    },
    [() => sem.release()],
    "wsync: corrupted Semaphore words (count 5, max 3)",
  );

  const barrier = new Barrier(i32, 0);
  await expectCorrupted(
    () => {
      Barrier.initialize(i32, 0, 2);
      i32[1] = -5;
    },
    [() => barrier.arrive(), () => barrier.arriveAndWaitAsync(), () => barrier.arriveAndDrop()],
    "wsync: corrupted Barrier words (remaining -5)",
  );
  await expectCorrupted(
    () => {
      Barrier.initialize(i32, 0, 2);
      i32[2] = -1;
    },
    [() => barrier.arriveAndDrop()],
    "wsync: corrupted Barrier words (expected -1)",
  );

  // Every value of a WaitGroup, Latch or CondVar word is a state: bit 31
  // "waiters" and a 31-bit count (docs/abi.md). -1 is WAITERS | 2^31 - 1.
  i32[0] = -1;
  assert.equal(new WaitGroup(i32, 0).count, 0x7fffffff);
  assert.equal(new WaitGroup(i32, 0).wait(0), false);
  i32.fill(0);
});

test("in Node, threads are supported", () => {
  assert.equal(threadSupportProblem(), null);
});

// Runs `code` in a Node without SharedArrayBuffer, as an old or locked-down
// engine (or a page that is not cross-origin isolated) would be.
// (Node 24 has no --no-harmony-sharedarraybuffer: the global is deleted
// before the module is loaded, which is what the module sees either way.)
function withoutSharedArrayBuffer(code) {
  const script = `delete globalThis.SharedArrayBuffer;\nconst wsync = await import(${JSON.stringify(moduleUrl)});\n${code}`;
  return execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
}

test("without SharedArrayBuffer, the module says what is missing and how to fix it", () => {
  const engine = JSON.parse(
    withoutSharedArrayBuffer(`
      let error;
      try { new wsync.Mutex(new Int32Array(4), 0); } catch (e) { error = e.name + ": " + e.message; }
      console.log(JSON.stringify({ problem: wsync.threadSupportProblem(), error }));`),
  );
  assert.deepEqual(engine.problem, {
    missing: "SharedArrayBuffer is not available in this JavaScript engine.",
    fix: "Use a browser or Node.js with WebAssembly threads.",
    message:
      "wsync: no WebAssembly threads here. SharedArrayBuffer is not available in this JavaScript engine. " +
      "Use a browser or Node.js with WebAssembly threads.",
  });
  assert.equal(
    engine.error,
    "TypeError: wsync: Mutex needs shared memory. SharedArrayBuffer is not available in this JavaScript " +
      "engine. Use a browser or Node.js with WebAssembly threads.",
  );

  // A page that is not cross-origin isolated (globalThis.crossOriginIsolated
  // false): the fix names the headers. (Chromium itself: tests/browser.)
  const page = JSON.parse(
    withoutSharedArrayBuffer(`
      globalThis.crossOriginIsolated = false;
      let error;
      try { wsync.WaitGroup.initialize(new Int32Array(4), 0); } catch (e) { error = e.message; }
      console.log(JSON.stringify({ problem: wsync.threadSupportProblem(), error }));`),
  );
  const fix =
    'Serve the page with the headers "Cross-Origin-Opener-Policy: same-origin" and ' +
    '"Cross-Origin-Embedder-Policy: require-corp", from https or http://localhost ' +
    "(wsync's serve.py does).";
  assert.deepEqual(page.problem, {
    missing: "SharedArrayBuffer is not available: this page is not cross-origin isolated.",
    fix,
    message: `wsync: no WebAssembly threads here. SharedArrayBuffer is not available: this page is not cross-origin isolated. ${fix}`,
  });
  assert.equal(
    page.error,
    `wsync: WaitGroup needs shared memory. SharedArrayBuffer is not available: this page is not cross-origin isolated. ${fix}`,
  );
});
