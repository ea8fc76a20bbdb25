// The Chromium half of the benchmarks: prints JSON lines like the C++ ones.
//  - main thread: a pthread holds a Mutex (or owes a WaitGroup a done()) for
//    1 s while the page's main thread waits: frames painted, main-thread busy
//    time (long tasks), and the notify-to-resume wake latency, for wsync's
//    async API, wsync under Asyncify, and Emscripten's pthread_mutex_lock;
//    plus wake latency over many short waits (median, p95).
//  - filter: the demo page's blur at 1..N threads on the wsync pool and with
//    pthread_create/pthread_barrier/pthread_join.
// WSYNC_WASM_BUILD_DIR names the wasm build (bench/run passes its own).
import { builtDir, launchBrowser, startServer } from "../tests/browser/harness.mjs";

const reps = Number(process.env.WSYNC_BENCH_REPS ?? 5);
const emit = (group, impl, params, unit, values, extra = {}) => {
  const s = [...values].sort((a, b) => a - b);
  const median = s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  console.log(JSON.stringify({ platform: "chromium", group, impl, params, unit, median, min: s[0], max: s.at(-1), values, ...extra }));
};
const percentile = (values, p) => {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
};

const browser = await launchBrowser();
try {
  // ---------------------------------------------------------- main thread --
  const www = await startServer(builtDir("www"));
  try {
    const open = async (build) => {
      const page = await browser.newPage();
      await page.goto(`${www.url}main_thread.html?build=${build}`);
      await page.evaluate(() => window.ready);
      return page;
    };
    const plain = await open("plain");
    const asyncify = await open("asyncify");
    const idle = [];
    for (let r = 0; r < reps; ++r) idle.push((await plain.evaluate(() => window.idleFrames(1000))).frames);
    emit("mainthread", "idle page", "1 s", "frames painted", idle);
    const cases = [
      ["wsync Mutex::lock_async", plain, "lock_async"],
      ["wsync WaitGroup::wait_async", plain, "wait_async"],
      ["wsync Mutex::lock (Asyncify)", asyncify, "lock_suspend"],
      ["wsync WaitGroup::wait (Asyncify)", asyncify, "wait_suspend"],
      ["pthread_mutex_lock", plain, "pthread_lock"],
    ];
    for (const [impl, page, name] of cases) {
      const frames = [], busy = [], latency = [], gaps = [];
      for (let r = 0; r < reps; ++r) {
        const m = await page.evaluate((n) => window.scenario(n, { holdMs: 1000 }), name);
        frames.push(m.frames);
        busy.push(m.longTasks.reduce((a, b) => a + b, 0));
        latency.push(m.latencyMs);
        gaps.push(m.maxFrameGapMs);
      }
      emit("mainthread", impl, "hold 1 s", "frames painted", frames, {
        busyMs: busy.sort((a, b) => a - b)[reps >> 1],
        maxFrameGapMs: gaps.sort((a, b) => a - b)[reps >> 1],
        latencyMs: latency.sort((a, b) => a - b)[reps >> 1],
      });
    }
    // Wake latency over many short waits: notify -> main thread resumed.
    for (const [impl, page, name] of cases.slice(0, 4)) {
      const latencies = [];
      for (let i = 0; i < 40; ++i) {
        latencies.push((await page.evaluate((n) => window.scenario(n, { holdMs: 20 }), name)).latencyMs);
      }
      emit("wakelatency", impl, "40 waits of 20 ms", "ms", latencies, { p95: percentile(latencies, 0.95) });
    }
    await plain.close();
    await asyncify.close();
  } finally {
    await www.close();
  }

  // --------------------------------------------------------------- filter --
  const web = await startServer(builtDir("web"));
  try {
    const page = await browser.newPage();
    await page.goto(web.url);
    await page.evaluate(() => window.wsyncDemo.ready);
    const poolSize = await page.evaluate(() => window.wsyncDemo.poolSize);
    await page.evaluate(() => window.wsyncDemo.loadSample(1024));
    await page.evaluate((t) => window.wsyncDemo.runFilter({ filter: "blur", radius: 8, threads: t, runs: 2 }), poolSize);
    // Every thread count and both ways take turns, one run each per turn
    // (as bench::interleave does natively), so the speedups compare runs of
    // the same stretch of the machine's load.
    const points = [];
    for (let threads = 1; threads <= poolSize; ++threads) {
      for (const compare of [false, true]) points.push({ threads, compare, times: [], maxFrameGapMs: 0 });
    }
    for (let r = 0; r < reps; ++r) {
      for (const p of points) {
        const run = await page.evaluate(
          ([t, c]) => window.wsyncDemo.runFilter({ filter: "blur", radius: 8, threads: t, runs: 1, compare: c }),
          [p.threads, p.compare],
        );
        p.times.push(...run.times);
        p.maxFrameGapMs = Math.max(p.maxFrameGapMs, run.maxFrameGapMs);
      }
    }
    for (const p of points) {
      emit("filter", p.compare ? "pthread_create + pthread_barrier + join" : "wsync pool",
        `threads=${p.threads} side=1024 cores=${poolSize}`, "ms per run", p.times, { maxFrameGapMs: p.maxFrameGapMs });
    }
    await page.close();
  } finally {
    await web.close();
  }
} finally {
  await browser.close();
}
