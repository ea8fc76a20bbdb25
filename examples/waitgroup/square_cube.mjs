// The WaitGroup pattern in JavaScript: two workers square and cube numbers
// into shared memory while the main thread awaits one WaitGroup, then reads
// the results. The same words and algorithm as the C++ example, so a C++
// pthread could be one of the workers (see wsync's docs/abi.md).
//
//   node square_cube.mjs          (after installing wsync's js/ folder as "wsync")
import { Worker, isMainThread, workerData } from "node:worker_threads";
import { WaitGroup } from "wsync";

// Shared words: [0] the WaitGroup, [1] the square, [2] the cube.
const WG = 0,
  SQUARE = 1,
  CUBE = 2;

if (isMainThread) {
  const i32 = new Int32Array(new SharedArrayBuffer(3 * 4));
  const wg = new WaitGroup(i32, WaitGroup.initialize(i32, WG));
  wg.add(2); // before the work starts, as in Go
  const jobs = [
    { input: 3, power: 2, dest: SQUARE },
    { input: 4, power: 3, dest: CUBE },
  ];
  for (const job of jobs) new Worker(new URL(import.meta.url), { workerData: { buffer: i32.buffer, ...job } });
  await wg.waitAsync(); // the main thread never blocks; done() published the results
  console.log(`square of 3 = ${i32[SQUARE]}`);
  console.log(`cube of 4 = ${i32[CUBE]}`);
} else {
  const { buffer, input, power, dest } = workerData;
  const i32 = new Int32Array(buffer);
  i32[dest] = input ** power; // a plain write: done() publishes it
  new WaitGroup(i32, WG).done();
}
