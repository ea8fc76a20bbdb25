// A browser Web Worker (module) for main_thread.test.mjs, on the wasm
// program's memory. Jobs:
//   increments: increment the C++ counter under the C++ Mutex with the
//     blocking wsync.mjs calls a worker may make, then count the C++
//     WaitGroup down;
//   lockAndHang: lock the C++ Mutex and never unlock it (the test
//     terminates this worker);
//   lockFor: try to lock the C++ Mutex for `ms`, and say whether it did.
import { Mutex, WaitGroup, canBlock } from "./wsync.mjs";

const jobs = {
  increments({ memory, mutexPtr, counterPtr, wgPtr, iterations }) {
    const m = Mutex.at(memory, mutexPtr);
    const heap = new Int32Array(memory.buffer);
    for (let i = 0; i < iterations; ++i) {
      m.lock();
      heap[counterPtr >> 2] += 1;
      m.unlock();
    }
    WaitGroup.at(memory, wgPtr).done();
    postMessage({ canBlock: canBlock() });
  },
  lockAndHang({ memory, mutexPtr }) {
    Mutex.at(memory, mutexPtr).lock();
    postMessage("locked");
  },
  lockFor({ memory, mutexPtr, ms }) {
    const start = performance.now();
    const locked = Mutex.at(memory, mutexPtr).lock(ms);
    postMessage({ locked, waited: performance.now() - start });
  },
};

onmessage = ({ data }) => jobs[data.job ?? "increments"](data);
