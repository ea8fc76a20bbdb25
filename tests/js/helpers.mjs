// Helpers for the JS tests.
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * The path of `file` (relative to the wasm build: WSYNC_WASM_BUILD_DIR,
 * default build/wasm); throws with the fix if it is missing. Also turns off
 * Node's global fetch, which 3.1.6's loader would call on a file path.
 */
export function wasmTestProgram(file) {
  const build = path.resolve(root, process.env.WSYNC_WASM_BUILD_DIR ?? "build/wasm");
  const modulePath = path.join(build, file);
  if (!existsSync(modulePath)) {
    throw new Error(`wsync: ${modulePath} is missing: build the wasm tree first (bash scripts/test.sh does)`);
  }
  delete globalThis.fetch;
  return modulePath;
}

const workerUrl = new URL("./worker.mjs", import.meta.url);

/** Runs `job` in a new worker on `buffer`; resolves when it finishes. */
export function runWorker(job, buffer, args) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerUrl, { workerData: { job, buffer, args } });
    worker.once("message", () => resolve());
    worker.once("error", reject);
    worker.once("exit", (code) => code !== 0 && reject(new Error(`worker exited ${code}`)));
  });
}

export function sharedInts(n) {
  return new Int32Array(new SharedArrayBuffer(4 * n));
}

/**
 * Go's fairness scenario from the waiter's side (tests/mutex_test.cpp has
 * the C++ one): while a holder relocks `mutex` at once in a loop, counting
 * its acquisitions in i32[countIndex], sleep 100 us and then lock, 10 times,
 * with `how` "lock" (blocking) or "lockAsync". Returns the total and the
 * longest wait (ms) and the most holder acquisitions during one wait.
 */
export async function relockingHolderRound(mutex, i32, countIndex, how) {
  const nap = new Int32Array(new SharedArrayBuffer(4));
  let total = 0;
  let longest = 0;
  let mostBypasses = 0;
  for (let i = 0; i < 10; ++i) {
    Atomics.wait(nap, 0, 0, 0.1);
    const before = Atomics.load(i32, countIndex);
    const start = performance.now();
    if (how === "lock") mutex.lock();
    else await mutex.lockAsync();
    const waited = performance.now() - start;
    mostBypasses = Math.max(mostBypasses, Atomics.load(i32, countIndex) - before);
    mutex.unlock();
    total += waited;
    longest = Math.max(longest, waited);
  }
  return { total, longest, mostBypasses };
}
