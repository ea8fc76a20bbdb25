// Helpers for the JS tests.
import { Worker } from "node:worker_threads";

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
