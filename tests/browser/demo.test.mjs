// The demo page (web/, built into build/wasm/web) in each browser engine
// (harness.mjs), served by the real serve.py: it is isolated and loads
// cleanly; every filter equals the native build of the same C++
// (examples/filter) on 1 and N threads; the page keeps painting through a
// long run; a screenshot shows it drawn; without the headers it shows the
// banner.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import path from "node:path";
import {
  builtDir,
  decodePng,
  engine,
  openPage,
  root,
  servedBrowser,
  startServer,
  unisolatedBrowser,
} from "./harness.mjs";

const nativeBuild = path.resolve(root, process.env.WSYNC_NATIVE_BUILD_DIR ?? "build/native");
const referenceTool = path.join(nativeBuild, "examples", "filter", "filter_reference");

// {sample, grayscale, sharpen, edges, blur-1, blur-4, blur-20} checksums of the native build.
function nativeReference(side) {
  if (!existsSync(referenceTool)) {
    throw new Error(`wsync: ${referenceTool} is missing: build the native tree first (bash scripts/test.sh does)`);
  }
  return JSON.parse(execFileSync(referenceTool, [String(side), String(side), "2"], { encoding: "utf8" }));
}

const ctx = servedBrowser(() => builtDir("web"));

async function openDemo(url = ctx.server.url, browser = ctx.browser) {
  const opened = await openPage(browser, url);
  // demo.js is a module: it may run after the load event the driver awaited.
  await opened.page.waitFor(() => window.wsyncDemo !== undefined);
  opened.ready = await opened.page.evaluate(() => window.wsyncDemo.ready);
  return opened;
}

const demo = (page, call, ...args) => page.evaluate(([c, a]) => window.wsyncDemo[c](...a), [call, args]);

// Frames a second that the page paints while doing nothing: the display's
// rate in Chromium and Firefox, less in WebKitGTK on Xvfb.
const idleFrameRate = (page) =>
  page.evaluate(
    () =>
      new Promise((r) => {
        let n = 0;
        const start = performance.now();
        const f = (t) => (t - start >= 1000 ? r((n * 1000) / (t - start)) : (++n, requestAnimationFrame(f)));
        requestAnimationFrame(f);
      }),
  );

// Lets a few frames paint (a freshly drawn 2048 x 2048 canvas costs one slow frame).
const settle = (page) =>
  page.evaluate(
    () =>
      new Promise((r) => {
        let n = 0;
        const f = () => (++n === 5 ? r() : requestAnimationFrame(f));
        requestAnimationFrame(f);
      }),
  );

test("served by serve.py the demo is cross-origin isolated and loads with no console errors", async () => {
  const { page, ready, consoleMessages, pageErrors } = await openDemo();
  assert.equal(ready, true);
  assert.equal(await page.evaluate(() => crossOriginIsolated), true);
  const poolSize = await page.evaluate(() => window.wsyncDemo.poolSize);
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  assert.equal(poolSize, Math.min(cores, 16), "one pool thread per core");
  assert.equal(await page.text("#status"), `ready: ${poolSize} worker thread(s) in the pool`);
  assert.equal(await page.visible("#banner"), false);
  assert.equal(await page.count("#threads option"), poolSize);
  assert.deepEqual(pageErrors, []);
  assert.deepEqual(
    consoleMessages.filter((m) => m.type === "error" || m.type === "warning"),
    [],
  );
  await page.close();
});

test("every filter equals the native build, on 1 and N threads, each way of waiting, with pthreads, and in bands alone", async () => {
  const side = 301; // not a multiple of any chunk count
  const reference = nativeReference(side);
  const { page, pageErrors } = await openDemo();
  const poolSize = await page.evaluate(() => window.wsyncDemo.poolSize);
  assert.equal(await demo(page, "loadSample", side), reference.sample, "the same sample picture");
  const cases = [
    ["grayscale", { filter: "grayscale" }],
    ["sharpen", { filter: "sharpen" }],
    ["edges", { filter: "edges" }],
    ["blur-1", { filter: "blur", radius: 1 }],
    ["blur-4", { filter: "blur", radius: 4 }],
    ["blur-20", { filter: "blur", radius: 20 }],
  ];
  for (const [label, options] of cases) {
    for (const threads of new Set([1, poolSize])) {
      for (const wait of ["async", "blocking", "compare"]) {
        const r = await demo(page, "runFilter", { ...options, threads, wait });
        assert.equal(r.checksum, reference[label], `${label} on ${threads} thread(s), ${wait}`);
      }
      const alone = await demo(page, "runBandsAlone", { ...options, threads });
      assert.equal(alone.checksum, reference[label], `${label} in ${threads} band(s) alone (the benchmarks' ceiling)`);
      assert.ok(alone.times[0] >= 0, `${label} in ${threads} band(s) alone: ${alone.times[0]} ms`);
    }
  }
  assert.deepEqual(pageErrors, []);
  await page.close();
});

test("the controls: a blur picked in the form runs on the pool and shows its figures", async () => {
  const reference = nativeReference(1024);
  const { page } = await openDemo();
  await page.select("#filter", "blur");
  await page.fill("#radius", "4");
  await page.select("#runs", "3");
  await page.click("#run");
  await page.waitFor(() => document.getElementById("status").textContent === "done");
  assert.equal(await page.text("#checksum"), reference["blur-4"]);
  assert.match(await page.text("#times"), /^\d+\.\d, \d+\.\d, \d+\.\d$/);
  assert.match(await page.text("#median"), /^\d+\.\d ms \(1024 x 1024, \d+ threads?\)$/);
  assert.match(await page.text("#gap"), /^\d+\.\d ms \(\d+ frames painted\)$/);
  await page.click("#speedup");
  await page.waitFor(() => document.getElementById("status").textContent === "done");
  const poolSize = await page.evaluate(() => window.wsyncDemo.poolSize);
  assert.equal(await page.count("#chart circle"), poolSize, "one point per thread count");
  await page.close();
});

test("the page compares its blur with OpenCV.js and Photon on the same picture, and shows the times", async () => {
  const { page, pageErrors, consoleMessages } = await openDemo();
  const installed = await page.evaluate(() => fetch("peers/peers.json").then((r) => r.json()));
  const lock = JSON.parse(readFileSync(path.join(root, "tests/browser/package-lock.json"), "utf8")).packages;
  assert.deepEqual(
    installed,
    {
      opencv: { version: lock["node_modules/@techstark/opencv-js"].version },
      photon: { version: lock["node_modules/@silvia-odwyer/photon"].version },
    },
    "the build copied both packages that scripts/setup.sh installs",
  );
  assert.equal(await page.text("#compare-peers"), "Compare with OpenCV.js and Photon");
  await demo(page, "loadSample", 512);
  const r = await demo(page, "comparePeers", { radius: 8, runs: 2 });
  assert.equal(r.wsync.runs, 2);
  for (const [key, bound] of [
    ["opencv", 1], // the same Gaussian: rounding apart (0.16 measured)
    ["photon", 5], // three box blurs of the same sigma (3.3; with sigma 1 or 3 it is 3.4 or 7.1)
  ]) {
    assert.equal(r[key].times.length, 2, key);
    assert.ok(r[key].medianMs > 0, `${key} took time: ${r[key].medianMs}`);
    assert.ok(
      r[key].difference < bound,
      `${key}'s blur is wsync's within ${bound} levels on average: ${r[key].difference}`,
    );
  }
  assert.match(
    await page.text("#peers"),
    /^radius 8, 512 x 512: wsync \d+\.\d ms on \d+ threads? · OpenCV\.js 4[.\d]+: \d+\.\d ms on 1 thread · Photon 0[.\d]+: \d+\.\d ms on 1 thread$/,
  );
  // The form's button runs it too, with the form's radius and runs.
  assert.equal(
    await page.evaluate(() => window.cv !== undefined && window.cv !== window.Module),
    true,
    "OpenCV.js runs on a Module of its own, not the demo's",
  );
  await page.fill("#radius", "3");
  await page.select("#runs", "1");
  await page.click("#compare-peers");
  await page.waitFor(() => /^radius 3, /.test(document.getElementById("peers").textContent));
  assert.equal(await page.evaluate(() => window.wsyncDemo.last.runs), 1);
  assert.deepEqual(pageErrors, []);
  assert.deepEqual(
    consoleMessages.filter((m) => m.type === "error"),
    [],
  );
  await page.close();
});

test("the page keeps painting through a long filter run on 1 and on N threads", async () => {
  const { page, pageErrors } = await openDemo();
  const poolSize = await page.evaluate(() => window.wsyncDemo.poolSize);
  const reference = nativeReference(2048);
  await demo(page, "loadSample", 2048);
  // Warm up every pool thread's code (wasm tiers up from its baseline compiler).
  await demo(page, "runFilter", { filter: "blur", radius: 20, threads: poolSize });
  await settle(page);
  // N: the pool's threads, up to the machine's cores. WebKitGTK reported 4
  // cores on a 2-core machine, so its pool had 4 threads; all four busy on 2
  // cores measure how the OS shares the cores between them and the page,
  // not whether the wait leaves the main thread free. The controls test
  // above runs every thread count.
  const busy = Math.min(poolSize, cpus().length);
  const idleFps = await idleFrameRate(page);
  const results = {};
  for (const threads of new Set([1, busy])) {
    // From the button, so the work starts in a task of the page's own.
    await page.select("#filter", "blur");
    await page.fill("#radius", "20");
    await page.select("#threads", String(threads));
    await page.select("#runs", "3");
    await page.click("#run");
    await page.waitFor(() => document.getElementById("status").textContent === "done", null, {
      timeout: 60_000,
    });
    const r = await page.evaluate(() => window.wsyncDemo.last);
    results[threads] = r;
    const spanMs = r.times.reduce((a, b) => a + b, 0); // the frames are counted over all three runs
    const shortestRun = Math.min(...r.times);
    console.log(
      `blur radius 20 on 2048 x 2048, ${threads} thread(s): 3 runs of ${r.medianMs.toFixed(0)} ms, ` +
        `${r.frames} frames (idle: ${idleFps.toFixed(0)} a second), longest frame gap per run ` +
        `${r.runFrameGapsMs.map((g) => g.toFixed(1)).join(", ")} ms, long tasks ${r.longTasks}`,
    );
    assert.equal(r.checksum, reference["blur-20"]);
    assert.ok(shortestRun > 100, `each run long enough to tell a blocked page from a busy host: ${r.times} ms`);
    // A wait that blocks the main thread paints nothing for a whole run
    // (the compare mode below shows it), and one that spins 100 ms leaves
    // such a gap in every run. The host alone delays a frame now and then
    // while the workers fill the cores: by 117 ms in a CI run and in one of
    // thirty runs of this test, 250 ms with one more busy thread beside
    // them; Chromium's trace of such a frame shows its task on the main
    // thread off the CPU for 86 of 102 ms, no script in it. So: no gap as
    // long as a run, and one run at least with none of 100 ms.
    assert.ok(r.maxFrameGapMs < shortestRun, `longest frame gap ${r.maxFrameGapMs} ms, shortest run ${shortestRun} ms`);
    assert.equal(r.runFrameGapsMs.length, 3);
    assert.ok(
      Math.min(...r.runFrameGapsMs) < 100,
      `a run painted with no gap of 100 ms: longest gaps ${r.runFrameGapsMs} ms`,
    );
    // Half the page's idle rate; a third in WebKitGTK, whose painting on
    // Xvfb slows to about half its idle rate whenever the workers keep the
    // cores busy (28 to 40 frames a second of 57 to 60, at 1 thread and at 2).
    const share = engine.name === "webkit" ? 1 / 3 : 1 / 2;
    assert.ok(
      r.frames >= idleFps * share * (spanMs / 1000),
      `frames kept coming (${r.frames} in ${spanMs} ms; idle: ${idleFps.toFixed(0)} a second)`,
    );
    await settle(page);
  }
  // The blur's two passes meet at a barrier of exactly N participants, so the
  // N-thread run's checksum proves N workers took part. How much faster it
  // was depends on the machine's load: reported (bench/run measures it),
  // never asserted.
  if (busy > 1) {
    console.log(`speedup on ${busy} threads: ${(results[1].medianMs / results[busy].medianMs).toFixed(2)}x`);
  }
  // The blocking C++ wait suspends (JSPI where the engine has it, Asyncify
  // elsewhere): the page keeps painting as with the async wait.
  const suspension = await page.evaluate(() => window.wsyncDemo.suspension);
  const b = await page.evaluate(async (threads) => {
    await new Promise((resolve) => setTimeout(resolve, 0)); // a task of the page's own
    return window.wsyncDemo.runFilter({ filter: "blur", radius: 20, threads, wait: "blocking" });
  }, busy);
  console.log(
    `blocking WaitGroup::wait() under ${suspension}: ${b.medianMs.toFixed(0)} ms, ${b.frames} frames, ` +
      `longest frame gap ${b.maxFrameGapMs.toFixed(1)} ms, long tasks ${b.longTasks}`,
  );
  const jspiBuilt = existsSync(path.join(builtDir("web"), "filter_demo_jspi.js"));
  assert.equal(
    suspension,
    jspiBuilt && engine.jspi ? "JSPI" : "Asyncify",
    `${engine.label} ${engine.jspi ? "has" : "has no"} JSPI: the page loads that build where it can`,
  );
  assert.equal(b.checksum, reference["blur-20"]);
  assert.ok(
    b.maxFrameGapMs < b.times[0],
    `blocking wait: longest frame gap ${b.maxFrameGapMs} ms, run ${b.times[0]} ms`,
  );
  await settle(page);
  // The compare mode blocks the page in pthread_join: the check above
  // fails for it, as it would for any wait that blocks the main thread.
  const c = await demo(page, "runFilter", { filter: "blur", radius: 20, threads: poolSize, wait: "compare" });
  console.log(
    `compare mode (pthread_create/barrier/join): ${c.medianMs.toFixed(0)} ms, longest frame gap ${c.maxFrameGapMs.toFixed(0)} ms`,
  );
  assert.equal(c.checksum, reference["blur-20"]);
  assert.ok(c.maxFrameGapMs >= c.times[0], `compare mode: a frame gap of the whole run (${c.maxFrameGapMs} ms)`);
  assert.deepEqual(pageErrors, []);
  await page.close();
});

// What a user sees, read from the engine's own screenshots (kept in
// build/screenshots/ to look at): the page rendered, the sample drawn in
// colour, the filter's output drawn in grey, the speedup chart's line and
// points in the chart's blue.
test("a screenshot shows the page, the picture before and after, and the speedup chart", async () => {
  const { page, pageErrors } = await openDemo();
  await demo(page, "loadSample", 256);
  await demo(page, "runFilter", { filter: "grayscale" });
  await demo(page, "measureSpeedup", { filter: "grayscale", runs: 1 });
  const shots = path.join(root, "build", "screenshots");
  mkdirSync(shots, { recursive: true });
  // Scrolls `selector` into view, takes a screenshot, and returns a grid of
  // steps x steps pixels sampled inside the element's box.
  async function look(selector, steps = 40) {
    const box = await page.evaluate(async (s) => {
      const e = document.querySelector(s);
      e.scrollIntoView({ block: "center" });
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      const r = e.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height, scale: devicePixelRatio };
    }, selector);
    const png = await page.screenshot();
    writeFileSync(path.join(shots, `demo-${engine.name}-${selector.slice(1)}.png`), png);
    const shot = decodePng(png);
    const pixels = [];
    for (let i = 1; i < steps; ++i) {
      for (let j = 1; j < steps; ++j) {
        const x = Math.floor((box.x + (box.width * i) / steps) * box.scale);
        const y = Math.floor((box.y + (box.height * j) / steps) * box.scale);
        if (x < shot.width && y < shot.height) pixels.push(shot.pixel(x, y));
      }
    }
    assert.ok(
      pixels.length > 1000,
      `${selector} is on screen (${JSON.stringify(box)}, shot ${shot.width} x ${shot.height})`,
    );
    return pixels;
  }
  const distinct = (pixels) => new Set(pixels.map(String)).size;
  const grey = ([r, g, b]) => Math.max(r, g, b) - Math.min(r, g, b) <= 3;
  const before = await look("#before");
  assert.ok(distinct(before) > 50, `the sample is drawn (${distinct(before)} colours)`);
  assert.ok(before.filter(grey).length < before.length / 2, "in colour");
  const after = await look("#after");
  assert.ok(distinct(after) > 20, `the output is drawn (${distinct(after)} shades)`);
  assert.equal(after.filter(grey).length, after.length, "in grey");
  // Every other pixel row at least: a speedup near 1x draws the line level,
  // 3 px thick, and a coarser grid can fall between its rows.
  const chart = await look("#chart", 200);
  const blue = ([r, g, b]) => Math.abs(r - 0x3b) + Math.abs(g - 0x7d) + Math.abs(b - 0xdd) < 60;
  assert.ok(chart.filter(blue).length >= 5, `the chart's line and points (${chart.filter(blue).length} blue samples)`);
  assert.deepEqual(pageErrors, []);
  await page.close();
});

// A 24-bit BMP of width x height (bottom-up rows), pixels from f(x, y) -> [r, g, b].
function bmp(width, height, f) {
  const row = Math.ceil((width * 3) / 4) * 4;
  const buf = Buffer.alloc(54 + row * height);
  buf.write("BM", 0);
  buf.writeUInt32LE(buf.length, 2);
  buf.writeUInt32LE(54, 10);
  buf.writeUInt32LE(40, 14);
  buf.writeInt32LE(width, 18);
  buf.writeInt32LE(height, 22);
  buf.writeUInt16LE(1, 26);
  buf.writeUInt16LE(24, 28);
  buf.writeUInt32LE(row * height, 34);
  for (let y = 0; y < height; ++y) {
    for (let x = 0; x < width; ++x) {
      const [r, g, b] = f(x, y);
      const at = 54 + (height - 1 - y) * row + x * 3;
      buf[at] = b;
      buf[at + 1] = g;
      buf[at + 2] = r;
    }
  }
  return buf;
}

test("the user's own picture: a file is loaded (large ones scaled down), a non-image is refused", async () => {
  const { page, pageErrors } = await openDemo();
  await page.setFile("#file", { name: "red.bmp", mimeType: "image/bmp", buffer: bmp(40, 30, () => [255, 0, 0]) });
  await page.waitFor(() => window.wsyncDemo.image.width === 40);
  assert.deepEqual(await page.evaluate(() => window.wsyncDemo.image), { width: 40, height: 30 });
  const r = await demo(page, "runFilter", { filter: "grayscale" });
  const pixel = await page.evaluate(() =>
    Array.from(document.getElementById("after").getContext("2d").getImageData(5, 5, 1, 1).data),
  );
  assert.deepEqual(pixel, [77, 77, 77, 255], "BT.601 luma of pure red");
  assert.match(r.checksum, /^[0-9a-f]{16}$/);
  await page.setFile("#file", {
    name: "wide.bmp",
    mimeType: "image/bmp",
    buffer: bmp(4096, 8, (x) => [x & 255, 0, 0]),
  });
  await page.waitFor(() => window.wsyncDemo.image.width === 2048);
  assert.deepEqual(await page.evaluate(() => window.wsyncDemo.image), { width: 2048, height: 4 });
  await page.setFile("#file", { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") });
  await page.waitFor(() => document.getElementById("status").textContent.includes("notes.txt"));
  assert.equal(await page.text("#status"), "wsync demo: notes.txt is not an image");
  assert.deepEqual(
    await page.evaluate(() => window.wsyncDemo.image),
    { width: 2048, height: 4 },
    "the picture is kept",
  );
  assert.deepEqual(pageErrors, []);
  await page.close();
});

test("bad arguments to the page's API are refused with exact messages", async () => {
  const { page } = await openDemo();
  const poolSize = await page.evaluate(() => window.wsyncDemo.poolSize);
  const error = (call, ...args) =>
    page.evaluate(
      ([c, a]) =>
        Promise.resolve()
          .then(() => window.wsyncDemo[c](...a))
          .then(
            () => "no error",
            (e) => e.message,
          ),
      [call, args],
    );
  assert.equal(
    await error("runFilter", { threads: poolSize + 1 }),
    `wsync demo: threads must be 1..${poolSize}, got ${poolSize + 1}`,
  );
  assert.equal(await error("runFilter", { filter: "emboss" }), 'wsync demo: unknown filter "emboss"');
  assert.equal(await error("runFilter", { filter: "blur", radius: 0 }), "wsync demo: blur radius must be 1..20");
  assert.equal(
    await error("runFilter", { filter: "blur", radius: 0, wait: "blocking" }),
    "wsync demo: blur radius must be 1..20",
    "the blocking way refuses it before it waits",
  );
  assert.equal(await error("runFilter", { wait: "sleep" }), 'wsync demo: unknown wait "sleep"');
  assert.equal(
    await error("runBandsAlone", { filter: "blur", radius: 0 }),
    "wsync demo: blur radius must be 1..20",
    "refused by the run on its pthread",
  );
  assert.equal(await error("loadSample", 5000), "wsync demo: image size must be 1..4096 on each side, got 5000 x 5000");
  // Nothing was left half done: a good run still works.
  assert.match((await demo(page, "runFilter", { filter: "sharpen" })).checksum, /^[0-9a-f]{16}$/);
  assert.match((await demo(page, "runBandsAlone", { filter: "sharpen" })).checksum, /^[0-9a-f]{16}$/);
  await page.close();
});

test("served without the isolation headers, the page shows the banner with the fix, and nothing crashes", async () => {
  const plain = await startServer(builtDir("web"), ["--no-isolation"]);
  const unisolated = await unisolatedBrowser(ctx);
  try {
    const { page, ready, pageErrors, consoleMessages } = await openDemo(plain.url, unisolated.browser);
    assert.equal(ready, false);
    assert.equal(await page.evaluate(() => crossOriginIsolated), false);
    assert.equal(await page.visible("#banner"), true);
    const missing = "SharedArrayBuffer is not available: this page is not cross-origin isolated.";
    const fix =
      'Serve the page with the headers "Cross-Origin-Opener-Policy: same-origin" and ' +
      '"Cross-Origin-Embedder-Policy: require-corp", from https or http://localhost ' +
      "(wsync's serve.py does).";
    assert.equal(await page.text("#banner-title"), missing);
    assert.equal(await page.text("#banner-text"), `${fix}\nFrom a wsync checkout: python3 serve.py build/wasm/web`);
    assert.equal(await page.text("#status"), `cannot run: ${missing}`);
    // The console says it too (what a page says while it loads is not seen
    // over WebKit's WebDriver classic: see harness.mjs).
    if (engine.consoleFromLoad) {
      assert.deepEqual(
        consoleMessages.filter((m) => m.type === "error").map((m) => m.text),
        [`wsync: no WebAssembly threads here. ${missing} ${fix}`],
      );
    }
    assert.equal(await page.evaluate(() => typeof window.Module), "undefined", "the wasm module was not even loaded");
    assert.deepEqual(pageErrors, []);
    await page.close();
  } finally {
    await unisolated.close();
    await plain.close();
  }
});
