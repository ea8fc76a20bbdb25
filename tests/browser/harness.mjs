// What every browser test shares: the real dev server (serve.py) on a free
// port, and one real browser engine behind one small page API, so each test
// is written once and runs in every engine.
//
// WSYNC_BROWSER picks the engine (default chromium):
//   chromium     Debian's Chromium (Blink/V8), driven by playwright-core;
//   firefox      Firefox ESR 153+ (Gecko/SpiderMonkey), by puppeteer-core over
//                WebDriver BiDi;
//   firefox-140  Firefox ESR 140, the same way: an engine without
//                Atomics.waitAsync, for the fallback paths;
//   webkit       WebKitGTK's MiniBrowser (WebKit/JavaScriptCore), by
//                WebDriver classic through Debian's WebKitWebDriver, on an
//                X display (scripts/test.sh runs it under xvfb-run).
// No driver downloads a browser: each uses the one Debian installed (for
// Firefox 140, scripts/setup.sh unpacks bookworm's package beside 153).
//
// The page API (every engine):
//   goto(url), evaluate(fn, arg), waitFor(fn, arg, { timeout }) -> its truthy
//   value, text/visible/count(selector), select/fill(selector, value),
//   click(selector), setFile(selector, { name, mimeType, buffer }),
//   screenshot() -> PNG bytes, close(); consoleMessages [{ type, text }]
//   (type: log, info, warning, error, debug) and pageErrors [message].
// Form controls are driven from the page's own DOM (value, then the input
// and change events the page listens to), the same in every engine.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { inflateSync } from "node:zlib";
import { after, before } from "node:test";
import path from "node:path";
import { chromium } from "playwright-core";
import puppeteer from "puppeteer-core";
import { root, startServe, stopAll } from "../serve_process.mjs";

export { root, stopAll };
export const wasmBuild = path.resolve(root, process.env.WSYNC_WASM_BUILD_DIR ?? "build/wasm");

// What each engine is and has. `jspi` and `waitAsync` are facts about the
// engine version named here; a test checks them against the running engine,
// so they cannot drift silently.
const ENGINES = {
  chromium: {
    label: "Chromium",
    executable: process.env.WSYNC_CHROMIUM ?? "/usr/bin/chromium",
    install: "apt-get install chromium (scripts/setup.sh does)",
    jspi: true,
    waitAsync: true,
    consoleFromLoad: true,
    launch: launchChromium,
  },
  firefox: {
    label: "Firefox ESR", // 153 or later: the first ESR with JSPI
    executable: process.env.WSYNC_FIREFOX ?? "/usr/bin/firefox-esr",
    install: "apt-get install firefox-esr (scripts/setup.sh does)",
    jspi: true,
    waitAsync: true,
    consoleFromLoad: true,
    launch: launchFirefox,
  },
  "firefox-140": {
    label: "Firefox ESR 140",
    executable: `${process.env.WSYNC_FIREFOX_140_ROOT ?? "/opt/wsync/firefox-esr-140"}/usr/lib/firefox-esr/firefox-esr`,
    install: "bash scripts/setup.sh unpacks bookworm's firefox-esr 140 there",
    jspi: false,
    waitAsync: false,
    consoleFromLoad: true,
    launch: launchFirefox,
  },
  webkit: {
    label: "WebKitGTK",
    executable: process.env.WSYNC_WEBKIT_DRIVER ?? "/usr/bin/WebKitWebDriver",
    install: "apt-get install webkit2gtk-driver xvfb xauth (scripts/setup.sh does)",
    jspi: false,
    waitAsync: true,
    consoleFromLoad: false, // WebDriver classic: see launchWebKit
    launch: launchWebKit,
  },
};

const engineName = process.env.WSYNC_BROWSER ?? "chromium";
if (!ENGINES[engineName]) {
  throw new Error(`wsync: WSYNC_BROWSER=${engineName} is not one of ${Object.keys(ENGINES).join(", ")}`);
}
/** The engine this run tests: { name, label, jspi, waitAsync, ... }. */
export const engine = { name: engineName, ...ENGINES[engineName] };

/** The folder a wasm build put its pages in; throws with the fix if it is missing. */
export function builtDir(...parts) {
  const dir = path.join(wasmBuild, ...parts);
  if (!existsSync(dir)) {
    throw new Error(`wsync: ${dir} is missing: build the wasm tree first (bash scripts/test.sh does)`);
  }
  return dir;
}

/**
 * Starts `python3 serve.py DIR --port 0 --quiet ...args`; resolves to
 * { url, close } once it is listening. Each test file's after() hook calls
 * stopAll(), so a failed test leaves no server running.
 */
export async function startServer(dir, args = []) {
  const server = startServe([dir, "--port", "0", "--quiet", ...args]);
  const started = await server.started;
  if (!started) {
    const { stdout, stderr } = server.output();
    throw new Error(`serve.py exited before serving:\n${stdout}${stderr}`);
  }
  return { url: started.url, close: server.stop };
}

/** Launches this run's engine; resolves to { newPage(), close() }. */
export function launchBrowser(options = {}) {
  if (!existsSync(engine.executable)) {
    throw new Error(`wsync: no ${engine.label} at ${engine.executable}: ${engine.install}`);
  }
  return engine.launch(engine.executable, options);
}

/**
 * The browser for a page served without the isolation headers: ctx.browser,
 * except in WebKitGTK, whose switch (see launchWebKit) turns
 * SharedArrayBuffer on for every page. There a second MiniBrowser without
 * it has none on such a page, as Safari has none. Resolves to
 * { browser, close }.
 */
export async function unisolatedBrowser(ctx) {
  if (engine.name !== "webkit") return { browser: ctx.browser, close: async () => {} };
  const browser = await launchBrowser({ sharedArrayBufferSwitch: false });
  return { browser, close: () => browser.close() };
}

/** Opens `url` in a new page of `browser`; resolves to { page, consoleMessages, pageErrors }. */
export async function openPage(browser, url, { initScript } = {}) {
  const page = await browser.newPage();
  if (initScript) await page.addInitScript(initScript);
  await page.goto(url);
  return { page, consoleMessages: page.consoleMessages, pageErrors: page.pageErrors };
}

/**
 * For a test file: before its tests, serve `dir()` with serve.py and launch
 * the engine; after them, close both (and any server a failed test left
 * running). Returns an object whose `server` and `browser` are set once
 * started. `dir` is called in the before hook, so a missing build fails
 * there with the fix.
 */
export function servedBrowser(dir) {
  const ctx = { server: undefined, browser: undefined };
  before(async () => {
    ctx.server = await startServer(dir());
    ctx.browser = await launchBrowser();
  });
  after(async () => {
    await ctx.browser?.close();
    await stopAll();
  });
  return ctx;
}

// ---- the page API over each driver ----------------------------------------

// The DOM helpers, as functions of the page: the same code in every engine.
const dom = {
  text: (s) => document.querySelector(s)?.textContent ?? null,
  visible: (s) => {
    const e = document.querySelector(s);
    return !!e && !e.hidden && getComputedStyle(e).display !== "none" && e.getClientRects().length > 0;
  },
  count: (s) => document.querySelectorAll(s).length,
  set: ([s, value]) => {
    const e = document.querySelector(s);
    if (!e) throw new Error(`no element ${s}`);
    e.value = value;
    e.dispatchEvent(new Event("input", { bubbles: true }));
    e.dispatchEvent(new Event("change", { bubbles: true }));
  },
  click: (s) => {
    const e = document.querySelector(s);
    if (!e) throw new Error(`no element ${s}`);
    setTimeout(() => e.click(), 0); // in a task of the page's own, as a user's click
  },
  setFile: ([s, name, type, base64]) => {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const files = new DataTransfer();
    files.items.add(new File([bytes], name, { type }));
    const e = document.querySelector(s);
    e.files = files.files;
    e.dispatchEvent(new Event("change", { bubbles: true }));
  },
};

// The methods every engine's page shares, given its evaluate().
function withDomHelpers(page) {
  return Object.assign(page, {
    text: (s) => page.evaluate(dom.text, s),
    visible: (s) => page.evaluate(dom.visible, s),
    count: (s) => page.evaluate(dom.count, s),
    select: (s, value) => page.evaluate(dom.set, [s, value]),
    fill: (s, value) => page.evaluate(dom.set, [s, value]),
    click: (s) => page.evaluate(dom.click, s),
    setFile: (s, { name, mimeType, buffer }) =>
      page.evaluate(dom.setFile, [s, name, mimeType, Buffer.from(buffer).toString("base64")]),
    // Polls the page every 20 ms until fn(arg) is truthy; resolves to it.
    async waitFor(fn, arg, { timeout = 30_000 } = {}) {
      const deadline = Date.now() + timeout;
      for (;;) {
        const value = await page.evaluate(fn, arg);
        if (value) return value;
        if (Date.now() > deadline) throw new Error(`wsync test: waited ${timeout} ms for ${fn}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  });
}

/**
 * The page API over a Playwright or puppeteer page: the two answer the same
 * calls, but for the name of the one that runs a script before the page's
 * own, console.warn's type ("warning", "warn"), and an uncaught Error's text
 * (puppeteer over BiDi says "Error: message").
 */
function driverPage(p, { addInitScript }) {
  const page = withDomHelpers({
    consoleMessages: [],
    pageErrors: [],
    goto: (url) => p.goto(url),
    evaluate: (fn, arg) => p.evaluate(fn, arg),
    addInitScript: (fn) => p[addInitScript](fn),
    screenshot: async () => Buffer.from(await p.screenshot()),
    close: () => p.close(),
  });
  p.on("console", (m) =>
    page.consoleMessages.push({ type: m.type() === "warn" ? "warning" : m.type(), text: m.text() }),
  );
  p.on("pageerror", (e) => page.pageErrors.push(e.message.replace(/^Error: /, "")));
  return page;
}

async function launchChromium(executablePath) {
  const browser = await chromium.launch({
    executablePath,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      // Headless pages count as hidden to some schedulers; keep rAF and
      // timers at full rate so frame counts mean what they say.
      "--disable-renderer-backgrounding",
      "--disable-background-timer-throttling",
      "--disable-backgrounding-occluded-windows",
    ],
  });
  return {
    newPage: async () => driverPage(await browser.newPage(), { addInitScript: "addInitScript" }),
    close: () => browser.close(),
  };
}

// preciseClock: performance.now() to the microsecond. Firefox rounds it to
// 20 us on an isolated page (and adds jitter), a tenth of a main-thread wake;
// the benchmarks' wake latencies would otherwise move in steps of that.
async function launchFirefox(executablePath, { preciseClock = false } = {}) {
  const browser = await puppeteer.launch({
    browser: "firefox",
    executablePath,
    headless: true,
    protocolTimeout: 600_000,
    extraPrefsFirefox: {
      // Keep rAF and timers at full rate in a headless window, as for Chromium.
      "dom.min_background_timeout_value": 4,
      "layout.throttled_frame_rate": 60,
      ...(preciseClock
        ? { "privacy.reduceTimerPrecision": false, "privacy.reduceTimerPrecision.unconditional": false }
        : {}),
    },
  });
  return {
    async newPage() {
      const p = await browser.newPage();
      p.setDefaultTimeout(300_000);
      return driverPage(p, { addInitScript: "evaluateOnNewDocument" });
    },
    close: () => browser.close(),
  };
}

// ---- WebKitGTK over WebDriver classic ---------------------------------------
//
// WebDriver classic has no console or error events and no script that runs
// before the page's own. The harness installs a capture of console.* and of
// uncaught errors right after each load (the load event, which goto awaits)
// and drains it with every evaluate: what a page says while it loads is not
// seen in WebKit, and the tests that are about load-time messages say so.

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.unref();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

const MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser";

async function launchWebKit(driverPath, { sharedArrayBufferSwitch = true } = {}) {
  if (!process.env.DISPLAY) {
    throw new Error("wsync: WebKitGTK needs an X display: run the tests under xvfb-run -a (scripts/test.sh does)");
  }
  const port = await freePort();
  // WebKitGTK keeps SharedArrayBuffer off unless JSC_useSharedArrayBuffer is
  // set, and then has it on every page, isolated or not; Safari turns it on
  // for cross-origin isolated pages by itself. The switch is only how
  // WebKitGTK is tested here.
  const env = { ...process.env };
  if (sharedArrayBufferSwitch) env.JSC_useSharedArrayBuffer = "true";
  else delete env.JSC_useSharedArrayBuffer;
  // The driver keeps one session (one MiniBrowser) at a time: a page that a
  // failed test left open gives way to the next one.
  const driver = spawn(driverPath, [`--port=${port}`, "--replace-on-new-session"], {
    stdio: ["ignore", "ignore", "pipe"],
    env,
  });
  let driverLog = "";
  driver.stderr.on("data", (d) => (driverLog += d));
  const exited = new Promise((resolve) => driver.once("exit", resolve));
  const base = `http://127.0.0.1:${port}`;
  async function call(method, url, body) {
    const response = await fetch(base + url, {
      method,
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await response.json();
    if (json.value?.error) throw new Error(`WebKitWebDriver ${url}: ${json.value.error}: ${json.value.message}`);
    return json.value;
  }
  for (let i = 0; ; ++i) {
    try {
      if ((await call("GET", "/status")).ready) break;
    } catch (e) {
      if (i === 100) throw new Error(`wsync: WebKitWebDriver did not start: ${e.message}\n${driverLog}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const sessions = new Set();
  return {
    async newPage() {
      const { sessionId } = await call("POST", "/session", {
        capabilities: {
          alwaysMatch: {
            browserName: "MiniBrowser",
            "webkitgtk:browserOptions": { binary: MINIBROWSER, args: ["--automation"] },
          },
        },
      });
      sessions.add(sessionId);
      const s = `/session/${sessionId}`;
      await call("POST", `${s}/timeouts`, { script: 600_000, pageLoad: 120_000 });
      const page = withDomHelpers({
        consoleMessages: [],
        pageErrors: [],
        async goto(url) {
          await call("POST", `${s}/url`, { url });
          await call("POST", `${s}/execute/sync`, { script: `(${installCapture})()`, args: [] });
        },
        async evaluate(fn, arg) {
          const r = await call("POST", `${s}/execute/async`, { script: EVALUATE, args: [String(fn), arg ?? null] });
          for (const m of r.console) {
            if (m.type === "pageerror") page.pageErrors.push(m.text);
            else page.consoleMessages.push(m);
          }
          if ("error" in r) throw new Error(r.error);
          return r.value;
        },
        addInitScript() {
          throw new Error("WebDriver classic cannot run a script before the page's own");
        },
        screenshot: async () => Buffer.from(await call("GET", `${s}/screenshot`), "base64"),
        async close() {
          sessions.delete(sessionId);
          await call("DELETE", s);
        },
      });
      return page;
    },
    async close() {
      for (const id of sessions) await call("DELETE", `/session/${id}`).catch(() => {});
      driver.kill();
      await exited;
    },
  };
}

// Runs in the page after each load: keeps console.* calls and uncaught
// errors in window.__wsyncCapture until the next evaluate drains them.
function installCapture() {
  if (window.__wsyncCapture) return;
  const kept = (window.__wsyncCapture = []);
  const types = { log: "log", info: "info", warn: "warning", error: "error", debug: "debug" };
  for (const [name, type] of Object.entries(types)) {
    const original = console[name].bind(console);
    console[name] = (...args) => {
      kept.push({ type, text: args.map(String).join(" ") });
      original(...args);
    };
  }
  const uncaught = (e) => kept.push({ type: "pageerror", text: e?.message ?? String(e) });
  addEventListener("error", (e) => uncaught(e.error ?? e));
  addEventListener("unhandledrejection", (e) => uncaught(e.reason));
}

// execute/async's body: calls the function (its source, as the other
// drivers send it) with its argument and answers with its value or error and
// what the capture kept.
const EVALUATE = `
const [source, arg, done] = arguments;
const drain = () => (window.__wsyncCapture ? window.__wsyncCapture.splice(0) : []);
Promise.resolve()
  .then(() => (0, eval)("(" + source + ")")(arg))
  .then(
    (value) => done({ value: value === undefined ? null : value, console: drain() }),
    (e) => done({ error: e && e.message !== undefined ? e.message : String(e), console: drain() }),
  );
`;

// ---- screenshots -------------------------------------------------------------

/**
 * Decodes a screenshot (an 8-bit RGB or RGBA PNG, as every driver here
 * makes) to { width, height, pixel(x, y) -> [r, g, b] }.
 */
export function decodePng(bytes) {
  const png = Buffer.from(bytes);
  if (png.readUInt32BE(0) !== 0x89504e47) throw new Error("not a PNG");
  let width, height, channels;
  const data = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    const type = png.toString("latin1", at + 4, at + 8);
    const body = png.subarray(at + 8, at + 8 + length);
    if (type === "IHDR") {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, color, , , interlace] = body.subarray(8, 13);
      channels = { 2: 3, 6: 4 }[color];
      if (depth !== 8 || !channels || interlace) throw new Error(`unsupported PNG: depth ${depth} color ${color}`);
    } else if (type === "IDAT") {
      data.push(body);
    }
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const out = Buffer.alloc(height * stride);
  // Undo each row's filter (PNG spec, section 9).
  for (let y = 0; y < height; ++y) {
    const filter = raw[y * (stride + 1)];
    const row = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let i = 0; i < stride; ++i) {
      const a = i >= channels ? out[y * stride + i - channels] : 0;
      const b = y > 0 ? out[(y - 1) * stride + i] : 0;
      const c = i >= channels && y > 0 ? out[(y - 1) * stride + i - channels] : 0;
      let predicted = 0;
      if (filter === 1) predicted = a;
      else if (filter === 2) predicted = b;
      else if (filter === 3) predicted = (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
        predicted = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      out[y * stride + i] = (row[i] + predicted) & 255;
    }
  }
  return {
    width,
    height,
    pixel: (x, y) => [...out.subarray(y * stride + x * channels, y * stride + x * channels + 3)],
  };
}
