// The browser half of the benchmarks, in the engine WSYNC_BROWSER names
// (tests/browser/harness.mjs: chromium, firefox or webkit): prints JSON
// lines like the C++ ones, with the engine's name as their platform.
//  - main thread: a pthread holds a Mutex (or owes a WaitGroup a done()) for
//    1 s while the page's main thread waits: frames painted, main-thread busy
//    time (long tasks), and the notify-to-resume wake latency, for wsync's
//    async API, wsync under Asyncify and under JSPI, Emscripten's
//    emscripten_atomic_wait_suspending (6.0.0 and later), the page's bare
//    Atomics.waitAsync, Emscripten's pthread_mutex_lock, and (in a page
//    linked with Wasm Workers too) emscripten_lock_async_acquire; plus wake
//    latency over many short waits (median, p95), each wait followed by one
//    of the bare Atomics.waitAsync in the same page (the engine's floor);
//    and the wasm size of the same program linked plain, with Asyncify and
//    with JSPI.
//  - filter: the demo page's blur at 1..N threads on the wsync pool and with
//    pthread_create/pthread_barrier/pthread_join, the host's ceiling (the
//    same blur in bands that wait for nothing, at 1 and N), and (Chromium)
//    how busy the browser's other threads kept the cores meanwhile; and the same
//    blur by OpenCV.js and Photon where installed (web/peers.js).
// WSYNC_WASM_BUILD_DIR names the wasm build (bench/run passes its own).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { builtDir, engine, launchBrowser, startServer } from "../tests/browser/harness.mjs";

const reps = Number(process.env.WSYNC_BENCH_REPS ?? 5);
const medianOf = (values) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const emit = (group, impl, params, unit, values, extra = {}) => {
  const s = [...values].sort((a, b) => a - b);
  const median = medianOf(values);
  console.log(
    JSON.stringify({
      platform: engine.name,
      group,
      impl,
      params,
      unit,
      median,
      min: s[0],
      max: s.at(-1),
      values,
      ...extra,
    }),
  );
};
const percentile = (values, p) => {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
};

// CPU time (ms) of every thread of every Chromium process, keyed
// "process type/thread name/tid", from /proc (Linux; empty elsewhere).
function chromiumCpu() {
  const cpu = new Map();
  const tick = 1000 / 100; // USER_HZ
  let pids = [];
  try {
    pids = readdirSync("/proc").filter((d) => /^\d+$/.test(d));
  } catch {
    return cpu;
  }
  for (const pid of pids) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8");
      if (!cmd.includes("chromium")) continue;
      const type = /--type=([a-z-]+)/.exec(cmd)?.[1] ?? "browser";
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
        const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        cpu.set(`${type}/${comm}/${tid}`, (Number(fields[11]) + Number(fields[12])) * tick);
      }
    } catch {
      // The process or thread ended meanwhile.
    }
  }
  return cpu;
}

// Firefox with its clock unrounded (harness.mjs), so latencies near the
// floor are not rounded to 20 us steps.
const browser = await launchBrowser({ preciseClock: true });
try {
  // ---------------------------------------------------------- main thread --
  const www = await startServer(builtDir("www"));
  try {
    // One page at a time (WebKit's driver keeps one session), each build's
    // cases on its own page.
    const open = async (build) => {
      const page = await browser.newPage();
      await page.goto(`${www.url}main_thread.html?build=${build}`);
      await page.evaluate(() => window.ready);
      return page;
    };
    const builds = ["plain", "asyncify"];
    if (engine.jspi && existsSync(path.join(builtDir("www"), "main_thread_jspi.js"))) builds.push("jspi");
    if (existsSync(path.join(builtDir("www"), "main_thread_wasm_workers.js"))) builds.push("wasm_workers");
    // The same in every engine: reported once, with Chromium's figures.
    for (const build of engine.name === "chromium" ? ["plain", "asyncify", "jspi"] : []) {
      const wasm = path.join(builtDir("www"), `main_thread_${build}.wasm`);
      if (existsSync(wasm))
        emit("wasmsize", build, "tests/browser/main_thread.cpp", "KB", [statSync(wasm).size / 1024]);
    }
    const mode = { asyncify: "Asyncify", jspi: "JSPI" };
    for (const build of builds) {
      const page = await open(build);
      if (build === "plain") {
        const idle = [];
        for (let r = 0; r < reps; ++r) idle.push((await page.evaluate(() => window.idleFrames(1000))).frames);
        emit("mainthread", "idle page", "1 s", "frames painted", idle);
      }
      // Long-task entries are Chromium's; elsewhere busy time is not measured.
      const seesLongTasks = await page.evaluate(() => window.seesLongTasks);
      const hasEmscriptenSuspending = await page.evaluate(() => typeof Module._mt_em_wait_suspending === "function");
      const cases = {
        plain: [
          ["wsync Mutex::lock_async", "lock_async"],
          ["wsync WaitGroup::wait_async", "wait_async"],
          ["bare Atomics.waitAsync (the floor)", "bare_wait_async"],
          ["pthread_mutex_lock", "pthread_lock"],
        ],
        // Emscripten's async lock, the peer of Mutex::lock_async, links only
        // with Wasm Workers (tests/CMakeLists.txt).
        wasm_workers: [["emscripten_lock_async_acquire", "em_lock_async"]],
      }[build] ?? [
        [`wsync Mutex::lock (${mode[build]})`, "lock_suspend"],
        [`wsync WaitGroup::wait (${mode[build]})`, "wait_suspend"],
        ...(hasEmscriptenSuspending
          ? [[`emscripten_atomic_wait_suspending (${mode[build]})`, "em_wait_suspending"]]
          : []),
      ];
      for (const [impl, name] of cases) {
        const frames = [],
          busy = [],
          latency = [],
          gaps = [];
        for (let r = 0; r < reps; ++r) {
          const m = await page.evaluate((n) => window.scenario(n, { holdMs: 1000 }), name);
          frames.push(m.frames);
          busy.push(m.longTasks.reduce((a, b) => a + b, 0));
          latency.push(m.latencyMs);
          gaps.push(m.maxFrameGapMs);
        }
        emit("mainthread", impl, "hold 1 s", "frames painted", frames, {
          busyMs: seesLongTasks ? medianOf(busy) : null,
          maxFrameGapMs: medianOf(gaps),
          latencyMs: medianOf(latency),
        });
      }
      // Wake latency over many short waits: notify -> main thread resumed.
      // The page's cases take turns, and each wait is followed by one of the
      // page's bare Atomics.waitAsync, so every case and the floor are
      // measured at the same moments: run one case's waits after another's,
      // and a page's own drift (JIT tiers, the host's load) shows as a gap
      // between them (in Firefox, 1.2x between two equal waits). The floor
      // is every one of the page's bare waits: the ones that follow a given
      // case also carry what that case leaves behind (its thread exiting),
      // which moved a case's own floor median by a fifth. The page linked
      // with Wasm Workers runs Mutex::lock_async too, beside its peer.
      // 400 each: a main-thread wake's latency spreads over 2x between its
      // quartiles. With 40, one case's median ratio to the floor moved
      // between 1.2 and 1.5 from run to run (Firefox); with 120, the median
      // of wsync's waits less the floor's moved between 3 and 21 us in four
      // loads of one page, and Emscripten's between -7 and 17 us.
      // A wait takes about 25 ms here (window.wakeLatency: no frame or
      // long-task accounting).
      const waits = 400;
      const warmUp = 5;
      const shortWait = (name) => page.evaluate(async (n) => (await window.wakeLatency(n, 20)).latencyMs, name);
      const timed = cases.filter(([, n]) => n !== "pthread_lock" && n !== "bare_wait_async");
      if (build === "wasm_workers") timed.unshift(["wsync Mutex::lock_async (linked with Wasm Workers)", "lock_async"]);
      const samples = timed.map(() => []);
      const floor = [];
      for (let i = -warmUp; i < waits; ++i) {
        for (const [c, [, name]] of timed.entries()) {
          const latency = await shortWait(name);
          const bare = await shortWait("bare_wait_async");
          if (i < 0) continue;
          samples[c].push(latency);
          floor.push(bare);
        }
      }
      for (const [c, [impl]] of timed.entries()) {
        const latencies = samples[c];
        emit("wakelatency", impl, `${waits} waits of 20 ms`, "ms", latencies, {
          p95: percentile(latencies, 0.95),
          floorMs: medianOf(floor),
          floorP95: percentile(floor, 0.95),
          floorValues: floor,
        });
      }
      await page.close();
    }
  } finally {
    await www.close();
  }

  // --------------------------------------------------------------- filter --
  const web = await startServer(builtDir("web"));
  try {
    const page = await browser.newPage();
    await page.goto(web.url);
    await page.waitFor(() => window.wsyncDemo !== undefined);
    await page.evaluate(() => window.wsyncDemo.ready);
    const poolSize = await page.evaluate(() => window.wsyncDemo.poolSize);
    await page.evaluate(() => window.wsyncDemo.loadSample(1024));
    await page.evaluate(
      (t) => window.wsyncDemo.runFilter({ filter: "blur", radius: 8, threads: t, runs: 2 }),
      poolSize,
    );
    // The pool, the pthread baseline and, at 1 and poolSize threads, the
    // host's ceiling (as bench/filter.cpp's: the same blur in bands that
    // wait for nothing). Every thread count and every way take turns, one
    // run each per turn (as bench::interleave does natively), so the
    // speedups compare runs of the same stretch of the machine's load.
    const IMPLS = {
      async: "wsync pool",
      compare: "pthread_create + pthread_barrier + join",
      alone: "ceiling: bands with halos, no barrier",
    };
    const points = [];
    for (let threads = 1; threads <= poolSize; ++threads) {
      for (const way of ["async", "compare"]) points.push({ threads, way, times: [], maxFrameGapMs: 0 });
      if (threads === 1 || threads === poolSize) points.push({ threads, way: "alone", times: [] });
    }
    // Three times the repetitions, as the native and Node runs do.
    for (let r = 0; r < 3 * reps; ++r) {
      for (const p of points) {
        const run = await page.evaluate(
          ([threads, way]) => {
            const o = { filter: "blur", radius: 8, threads, runs: 1 };
            if (way === "alone") return window.wsyncDemo.runBandsAlone(o);
            return window.wsyncDemo.runFilter({ ...o, wait: way });
          },
          [p.threads, p.way],
        );
        p.times.push(...run.times);
        if (p.way !== "alone") p.maxFrameGapMs = Math.max(p.maxFrameGapMs, run.maxFrameGapMs);
      }
    }
    // Where the cores go while the pool runs at `poolSize` threads: CPU time
    // of every Chromium thread over 20 runs in a row, the pool's workers
    // (DedicatedWorker) and the rest (the page's main thread painting, the
    // compositor, the GPU process...), per second. One call, so the page's
    // drawing of the result and its checksum, after the last run, add
    // little; the compare runs are left out (Emscripten's pthread_join keeps
    // the main thread busy while it waits).
    const before = chromiumCpu();
    const wallStart = performance.now();
    await page.evaluate(
      (t) => window.wsyncDemo.runFilter({ filter: "blur", radius: 8, threads: t, runs: 20 }),
      poolSize,
    );
    const wallMs = performance.now() - wallStart;
    const spent = new Map(); // CPU ms per "process type/thread name"
    for (const [key, ms] of chromiumCpu()) {
      const d = ms - (before.get(key) ?? 0);
      const name = key.replace(/\/\d+$/, "");
      if (d > 0) spent.set(name, (spent.get(name) ?? 0) + d);
    }
    if (spent.size) {
      const others = [...spent].filter(([name]) => !name.endsWith("/DedicatedWorker"));
      const busiest = others
        .sort((a, b) => b[1] - a[1])
        .slice(0, 4)
        .map(([name, ms]) => `${name} ${((ms / wallMs) * 1000).toFixed(0)}`);
      const otherMs = others.reduce((a, [, ms]) => a + ms, 0);
      emit(
        "filtercpu",
        "chromium threads but the workers",
        `20 runs of the pool at ${poolSize} threads`,
        "ms of CPU per s",
        [(otherMs / wallMs) * 1000],
        { busiest: busiest.join(", ") },
      );
    }
    // The same blur by what users might pick instead (web/peers.js:
    // OpenCV.js and Photon, single-threaded), beside the pool at one thread
    // per core, in turns: each call runs the pool once, then each peer once.
    const peers = await page.evaluate(() => fetch("peers/peers.json").then((r) => r.json()));
    if (Object.keys(peers).length) {
      await page.evaluate(() => window.wsyncDemo.comparePeers({ radius: 8, runs: 1 })); // warm-up
      const series = new Map();
      let threads = 0;
      for (let r = 0; r < 3 * reps; ++r) {
        const got = await page.evaluate(() => window.wsyncDemo.comparePeers({ radius: 8, runs: 1 }));
        threads = got.wsync.threads;
        for (const [key, result] of Object.entries(got)) {
          if (!series.has(key)) series.set(key, { ...result, times: [] });
          series.get(key).times.push(...result.times);
        }
      }
      for (const [key, s] of series) {
        emit(
          "filterpeers",
          key === "wsync" ? `wsync pool, ${threads} threads` : `${s.name} ${s.version}`,
          "blur radius 8 side=1024",
          "ms per run",
          s.times,
          key === "wsync" ? { threads } : { difference: s.difference },
        );
      }
    }
    for (const p of points) {
      emit(
        "filter",
        IMPLS[p.way],
        `threads=${p.threads} side=1024 cores=${poolSize}`,
        "ms per run",
        p.times,
        p.way === "alone" ? {} : { maxFrameGapMs: p.maxFrameGapMs },
      );
    }
    await page.close();
  } finally {
    await web.close();
  }
} finally {
  await browser.close();
}
