// The demo page: loads filter_demo (C++ on wsync), runs filters without ever
// blocking the main thread, and measures what the user sees. A small API on
// window.wsyncDemo lets the browser tests drive the same code the buttons do.
import { WaitGroup, threadSupportProblem } from "./wsync.mjs";
import { PEER_NAMES, blurWithPeers, installedPeers } from "./peers.js";

const $ = (id) => document.getElementById(id);
const FILTERS = { grayscale: 0, blur: 1, sharpen: 2, edges: 3 };
const MAX_SIDE = 2048; // larger pictures are scaled down to fit

// ------------------------------------------------------------ can it run? --

// What keeps wsync from running here, with the fix (wsync.mjs says it, and
// the console gets it too); null when nothing does.
function whatIsMissing() {
  const problem = threadSupportProblem();
  if (problem === null) return null;
  console.error(problem.message);
  let text = problem.fix;
  if (globalThis.crossOriginIsolated === false) text += "\nFrom a wsync checkout: python3 serve.py build/wasm/web";
  return { title: problem.missing, text };
}

function showBanner({ title, text }) {
  $("banner-title").textContent = title;
  $("banner-text").textContent = text;
  $("banner").hidden = false;
  $("status").textContent = "cannot run: " + title;
  $("app").setAttribute("aria-busy", "false");
}

// ------------------------------------------------------- frame monitoring --

// Every animation frame: the spinner turns, and while a measurement is on,
// the frames are counted and each run's longest gap between two is kept (a
// gap across two runs counts in both; the runs follow each other, so the
// longest of these is the measurement's longest).
const frames = { last: 0, measuring: false, count: 0, runGap: 0, runGaps: [] };
let longTasks = 0;
function onFrame(t) {
  if (frames.last !== 0 && frames.measuring) {
    frames.runGap = Math.max(frames.runGap, t - frames.last);
    frames.count += 1;
  }
  frames.last = t;
  drawSpinner(t);
  requestAnimationFrame(onFrame);
}

function drawSpinner(t) {
  const c = $("spinner").getContext("2d");
  const a = (t / 1000) * 2 * Math.PI; // one turn per second
  c.clearRect(0, 0, 48, 48);
  c.lineWidth = 5;
  c.strokeStyle = "#dde3ea";
  c.beginPath();
  c.arc(24, 24, 18, 0, 2 * Math.PI);
  c.stroke();
  c.strokeStyle = "#3b7ddd";
  c.beginPath();
  c.arc(24, 24, 18, a, a + 1.6);
  c.stroke();
}

function startMeasuring() {
  frames.measuring = true;
  frames.count = 0;
  frames.runGap = 0;
  frames.runGaps = [];
  frames.last = performance.now();
  longTasks = 0;
}

// A run ended: its longest gap, the one still open included (a blocked
// page paints nothing).
function endOfRun() {
  frames.runGaps.push(Math.max(frames.runGap, performance.now() - frames.last));
  frames.runGap = 0;
}

function stopMeasuring() {
  frames.measuring = false;
  const gaps = frames.runGaps;
  return { maxFrameGapMs: Math.max(...gaps), runFrameGapsMs: gaps, frames: frames.count, longTasks };
}

// ------------------------------------------------------------ the module --

let M; // the Emscripten module
let done; // the pool's WaitGroup, on the C++ object's word
let bandsAloneDone; // runBandsAlone()'s WaitGroup, likewise
let poolSize = 1;
let image = { width: 0, height: 0 };
let inputAddress = 0; // the input picture in wasm memory
let busy = false;
let suspension = ""; // how the loaded build's blocking waits suspend: "JSPI" or "Asyncify"

// The build to load: the JSPI one where the engine has JSPI and the build
// made one (Emscripten 3.1.61 and later; builds.json says), else Asyncify's.
async function pickBuild() {
  const builds = await fetch("builds.json").then(
    (r) => (r.ok ? r.json() : {}),
    () => ({}),
  );
  if ("Suspending" in WebAssembly && builds.jspi) return { script: builds.jspi, suspension: "JSPI" };
  return { script: builds.asyncify ?? "filter_demo.js", suspension: "Asyncify" };
}

async function loadModule() {
  const cores = Math.max(1, Math.min(navigator.hardwareConcurrency || 1, 16));
  const build = await pickBuild();
  suspension = build.suspension;
  M = await new Promise((resolve, reject) => {
    window.Module = {
      // Workers for the pool and for the compare mode (web/CMakeLists.txt).
      wsyncPoolSize: 2 * cores,
      onRuntimeInitialized() {
        resolve(window.Module);
      },
      print: (text) => console.log(text),
      printErr: (text) => console.warn(text),
    };
    const script = document.createElement("script");
    script.src = build.script;
    script.onerror = () =>
      reject(new Error(`${build.script} did not load: build the demo first (bash scripts/demo.sh)`));
    document.body.append(script);
  });
  poolSize = M._demo_init(cores);
  done = WaitGroup.at(M, M._demo_done_word());
  bandsAloneDone = WaitGroup.at(M, M._demo_bands_alone_done());
}

// Copies the input picture (w x h RGBA) into wasm memory and shows it.
function setImage(width, height, fill) {
  const input = M._demo_images(width, height);
  if (input === 0)
    throw new RangeError(`wsync demo: image size must be 1..4096 on each side, got ${width} x ${height}`);
  image = { width, height };
  inputAddress = input;
  fill(input);
  drawCanvas($("before"), input);
  const after = $("after");
  after.width = width;
  after.height = height;
  after.getContext("2d").clearRect(0, 0, width, height);
  return M.UTF8ToString(M._demo_checksum(0));
}

function drawCanvas(canvas, address) {
  const { width, height } = image;
  canvas.width = width;
  canvas.height = height;
  // ImageData may not view shared memory: copy the pixels out first.
  const pixels = new Uint8ClampedArray(new Uint8Array(M.wsyncMemory.buffer, address, width * height * 4));
  canvas.getContext("2d").putImageData(new ImageData(pixels, width, height), 0, 0);
}

function loadSample(side) {
  return setImage(side, side, () => M._demo_make_sample());
}

async function loadFile(file) {
  if (!file.type.startsWith("image/")) throw new TypeError(`wsync demo: ${file.name} is not an image`);
  const bitmap = await createImageBitmap(file);
  const scale = Math.min(1, MAX_SIDE / Math.max(bitmap.width, bitmap.height));
  const width = Math.max(1, Math.round(bitmap.width * scale));
  const height = Math.max(1, Math.round(bitmap.height * scale));
  const canvas = new OffscreenCanvas(width, height);
  const context = canvas.getContext("2d");
  context.drawImage(bitmap, 0, 0, width, height);
  const rgba = context.getImageData(0, 0, width, height).data;
  return setImage(width, height, (input) => new Uint8Array(M.wsyncMemory.buffer).set(rgba, input));
}

// ------------------------------------------------------------- running --

// How the page's main thread waits for a run.
const WAITS = {
  async: "awaits WaitGroup.waitAsync()",
  blocking: "blocking C++ WaitGroup::wait()",
  compare: "pthread compare mode",
};

function checkOptions({ filter = "blur", radius = 8, threads = poolSize, runs = 1, wait = "async" } = {}) {
  if (!(filter in FILTERS)) throw new RangeError(`wsync demo: unknown filter ${JSON.stringify(filter)}`);
  if (!(wait in WAITS)) throw new RangeError(`wsync demo: unknown wait ${JSON.stringify(wait)}`);
  if (!Number.isInteger(threads) || threads < 1 || threads > poolSize) {
    throw new RangeError(`wsync demo: threads must be 1..${poolSize}, got ${threads}`);
  }
  if (!Number.isInteger(runs) || runs < 1)
    throw new RangeError(`wsync demo: runs must be a positive integer, got ${runs}`);
  return { filter, radius, threads, runs, wait };
}

// One job on the wsync pool, the main thread waiting as `wait` says: it
// awaits the pool's WaitGroup from JS; or calls C++ that blocks in
// WaitGroup::wait() (it suspends: the page keeps painting); or, in compare
// mode, runs the job with pthread_create/pthread_barrier/pthread_join (the
// main thread blocks in pthread_join: the page freezes).
async function runOnce({ filter, radius, threads, wait }) {
  if (wait === "compare") await new Promise((r) => setTimeout(r, 0)); // let the status paint before the page freezes
  const start = performance.now();
  let problem;
  if (wait === "compare") {
    problem = M.UTF8ToString(M._demo_run_pthreads(FILTERS[filter], radius, threads));
  } else if (wait === "blocking") {
    const args = [FILTERS[filter], radius, threads];
    problem = await M.ccall("demo_run_blocking", "string", ["number", "number", "number"], args, { async: true });
  } else {
    problem = M.UTF8ToString(M._demo_start(FILTERS[filter], radius, threads));
    if (!problem) await done.waitAsync();
  }
  if (problem) throw new RangeError(`wsync demo: ${problem}`);
  return performance.now() - start;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function exclusive(what) {
  if (busy) throw new Error("wsync demo: a run is already in progress");
  busy = true;
  setButtons(false);
  try {
    return await what();
  } finally {
    busy = false;
    setButtons(true);
  }
}

// Runs the filter `runs` times; shows and returns the timings.
function runFilter(options) {
  const o = checkOptions(options);
  return exclusive(async () => {
    const how = o.wait === "blocking" ? `${WAITS.blocking} under ${suspension}` : WAITS[o.wait];
    $("status").textContent = `running ${o.filter} on ${o.threads} thread(s), ${how}...`;
    startMeasuring();
    const times = [];
    for (let i = 0; i < o.runs; ++i) {
      times.push(await runOnce(o));
      endOfRun();
    }
    const measured = stopMeasuring();
    drawCanvas($("after"), M._demo_output());
    const result = { ...o, times, medianMs: median(times), checksum: M.UTF8ToString(M._demo_checksum(1)), ...measured };
    $("times").textContent = times.map((t) => t.toFixed(1)).join(", ");
    $("median").textContent =
      `${result.medianMs.toFixed(1)} ms (${image.width} x ${image.height}, ${o.threads} thread${o.threads > 1 ? "s" : ""})`;
    $("gap").textContent = `${result.maxFrameGapMs.toFixed(1)} ms (${result.frames} frames painted)`;
    $("checksum").textContent = result.checksum;
    $("status").textContent = "done";
    window.wsyncDemo.last = result;
    return result;
  });
}

// The benchmarks' ceiling (bench/browser.mjs): the same filter in `threads`
// bands that wait for nothing (run_bands_alone in examples/filter/pool.hpp),
// on workers, as the pool's; the page awaits the end. The times are the
// bands' alone, without the threads' start-up.
function runBandsAlone(options) {
  const o = checkOptions({ ...options, wait: "async" });
  return exclusive(async () => {
    const times = [];
    for (let i = 0; i < o.runs; ++i) {
      let problem = M.UTF8ToString(M._demo_start_bands_alone(FILTERS[o.filter], o.radius, o.threads));
      if (!problem) {
        await bandsAloneDone.waitAsync();
        problem = M.UTF8ToString(M._demo_bands_alone_problem());
      }
      if (problem) throw new RangeError(`wsync demo: ${problem}`);
      times.push(M._demo_bands_alone_ms());
    }
    const { filter, radius, threads, runs } = o;
    return { filter, radius, threads, runs, times, checksum: M.UTF8ToString(M._demo_checksum(1)) };
  });
}

// The blur on the pool, at one thread per core by default, and then the
// same blur by each other library installed (peers.js), single-threaded, on
// the same picture, `runs` times each; shows and returns the medians:
// { wsync: <runFilter's result>, opencv: { name, version, times, medianMs,
// difference }, photon: ... }.
async function comparePeers(options = {}) {
  const installed = await installedPeers();
  if (!installed.opencv && !installed.photon) {
    throw new Error("wsync demo: no other blur is installed (npm ci in tests/browser, then build the demo again)");
  }
  const cores = Math.max(1, Math.min(poolSize, navigator.hardwareConcurrency || 1));
  const o = checkOptions({ radius: 8, threads: cores, runs: 5, wait: "async", ...options, filter: "blur" });
  const own = await runFilter(o);
  return exclusive(async () => {
    const bytes = image.width * image.height * 4;
    // Copies: the peers must not see wasm memory change under them.
    const input = new Uint8Array(new Uint8Array(M.wsyncMemory.buffer, inputAddress, bytes));
    const expected = new Uint8Array(new Uint8Array(M.wsyncMemory.buffer, M._demo_output(), bytes));
    $("peers").textContent = "running...";
    $("status").textContent = "running the other libraries' blur, one thread each (the page pauses meanwhile)...";
    await new Promise((resolve) => setTimeout(resolve, 0)); // let the status paint first
    const peers = await blurWithPeers({ installed, ...image, input, radius: o.radius, runs: o.runs, expected });
    const shown = [
      `radius ${o.radius}, ${image.width} x ${image.height}: wsync ${own.medianMs.toFixed(1)} ms on ${o.threads} thread${o.threads > 1 ? "s" : ""}`,
    ];
    for (const peer of Object.values(peers)) {
      peer.medianMs = median(peer.times);
      shown.push(`${peer.name} ${peer.version}: ${peer.medianMs.toFixed(1)} ms on 1 thread`);
    }
    $("peers").textContent = shown.join(" · ");
    $("status").textContent = "done";
    return { wsync: own, ...peers };
  });
}

// Runs the filter at 1..poolSize threads, median of `runs` each; draws the chart.
function measureSpeedup(options) {
  const o = checkOptions(options);
  return exclusive(async () => {
    const points = [];
    for (let threads = 1; threads <= poolSize; ++threads) {
      $("status").textContent = `speedup: ${threads} of ${poolSize} thread(s)...`;
      const times = [];
      for (let i = 0; i < o.runs; ++i) times.push(await runOnce({ ...o, threads }));
      points.push({ threads, medianMs: median(times) });
    }
    for (const p of points) p.speedup = points[0].medianMs / p.medianMs;
    drawChart(points, o);
    $("status").textContent = "done";
    return points;
  });
}

function drawChart(points, o) {
  const svg = $("chart");
  const W = 420,
    H = 260,
    left = 44,
    bottom = 34,
    top = 14,
    right = 14;
  const maxX = Math.max(2, points.length);
  const maxY = Math.max(maxX, ...points.map((p) => p.speedup));
  const x = (t) => left + ((t - 1) / (maxX - 1)) * (W - left - right);
  const y = (s) => H - bottom - (s / maxY) * (H - top - bottom);
  const parts = [];
  for (let s = 0; s <= maxY; s += Math.max(1, Math.round(maxY / 5))) {
    parts.push(`<line x1="${left}" x2="${W - right}" y1="${y(s)}" y2="${y(s)}" stroke="#e3e8ee"/>`);
    parts.push(`<text x="${left - 6}" y="${y(s) + 4}" text-anchor="end" font-size="11">${s}x</text>`);
  }
  for (let t = 1; t <= maxX; ++t)
    parts.push(`<text x="${x(t)}" y="${H - bottom + 16}" text-anchor="middle" font-size="11">${t}</text>`);
  parts.push(`<text x="${(W + left) / 2}" y="${H - 4}" text-anchor="middle" font-size="12">threads</text>`);
  parts.push(
    `<line x1="${x(1)}" y1="${y(1)}" x2="${x(maxX)}" y2="${y(maxX)}" stroke="#9aa7b4" stroke-dasharray="4 4"/>`,
  );
  const path = points.map((p, i) => `${i ? "L" : "M"}${x(p.threads)},${y(p.speedup)}`).join(" ");
  parts.push(`<path d="${path}" fill="none" stroke="#3b7ddd" stroke-width="2.5"/>`);
  for (const p of points) {
    parts.push(
      `<circle cx="${x(p.threads)}" cy="${y(p.speedup)}" r="4" fill="#3b7ddd"><title>${p.threads} threads: ${p.medianMs.toFixed(1)} ms, ${p.speedup.toFixed(2)}x</title></circle>`,
    );
  }
  svg.innerHTML = parts.join("");
  $("chart-note").textContent =
    `${o.filter}${o.filter === "blur" ? ` radius ${o.radius}` : ""} on ${image.width} x ${image.height}: ` +
    points.map((p) => `${p.threads}: ${p.medianMs.toFixed(1)} ms (${p.speedup.toFixed(2)}x)`).join(", ") +
    ". Dashed: ideal.";
}

// --------------------------------------------------------------- the UI --

function setButtons(enabled) {
  for (const id of ["run", "speedup", "compare-peers", "sample", "file"]) $(id).disabled = !enabled;
}

function formOptions() {
  return {
    filter: $("filter").value,
    radius: Number($("radius").value),
    threads: Number($("threads").value),
    runs: Number($("runs").value),
    wait: $("wait").value,
  };
}

function report(error) {
  console.error(error);
  $("status").textContent = error.message;
}

function wireUp() {
  const threads = $("threads");
  for (let t = 1; t <= poolSize; ++t) threads.add(new Option(String(t), String(t), t === poolSize, t === poolSize));
  $("blocking").textContent = `blocking C++ WaitGroup::wait(), suspended with ${suspension} (keeps painting)`;
  $("radius").addEventListener("input", () => ($("radius-out").value = $("radius").value));
  $("filter").addEventListener("change", () => ($("radius").disabled = $("filter").value !== "blur"));
  $("run").addEventListener("click", () => runFilter(formOptions()).catch(report));
  $("speedup").addEventListener("click", () => measureSpeedup(formOptions()).catch(report));
  $("compare-peers").addEventListener("click", () => {
    const { radius, runs } = formOptions();
    comparePeers({ radius, runs }).catch(report);
  });
  installedPeers().then((peers) => {
    const names = Object.keys(PEER_NAMES)
      .filter((key) => peers[key])
      .map((key) => PEER_NAMES[key]);
    if (names.length === 0) return;
    $("compare-peers").textContent = `Compare with ${names.join(" and ")}`;
    $("compare-peers").hidden = false;
    $("peers-row").hidden = false;
  });
  $("sample").addEventListener("click", () => {
    try {
      loadSample(Number($("sample-size").value));
    } catch (error) {
      report(error);
    }
  });
  $("file").addEventListener("change", () => {
    const file = $("file").files[0];
    if (file) loadFile(file).catch(report);
  });
  const drop = $("drop");
  drop.addEventListener("dragover", (e) => {
    e.preventDefault();
    drop.classList.add("over");
  });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (e) => {
    e.preventDefault();
    drop.classList.remove("over");
    const file = e.dataTransfer.files[0];
    if (file) loadFile(file).catch(report);
  });
}

async function main() {
  requestAnimationFrame(onFrame);
  if (typeof PerformanceObserver === "function" && PerformanceObserver.supportedEntryTypes?.includes("longtask")) {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) if (frames.measuring && entry.duration > 100) longTasks += 1;
    }).observe({ entryTypes: ["longtask"] });
  }
  if (missing) {
    showBanner(missing);
    return false;
  }
  await loadModule();
  wireUp();
  loadSample(1024);
  setButtons(true);
  $("status").textContent = `ready: ${poolSize} worker thread(s) in the pool`;
  $("app").setAttribute("aria-busy", "false");
  return true;
}

const missing = whatIsMissing();
const ready = main().then(
  (ok) => ok,
  (error) => {
    report(error);
    throw error;
  },
);
// For the browser tests (tests/browser/demo.test.mjs) and the curious.
window.wsyncDemo = {
  ready, // resolves true once the pool runs, false when the banner shows why it cannot
  missing,
  runFilter,
  runBandsAlone,
  measureSpeedup,
  comparePeers,
  loadSample,
  get poolSize() {
    return poolSize;
  },
  get suspension() {
    return suspension;
  },
  get image() {
    return { width: image.width, height: image.height };
  },
};
