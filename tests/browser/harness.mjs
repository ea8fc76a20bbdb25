// What every browser test shares: the real dev server (serve.py) on a free
// port, and Debian's Chromium driven by playwright-core.
import { existsSync } from "node:fs";
import { after, before } from "node:test";
import path from "node:path";
import { chromium } from "playwright-core";
import { root, startServe, stopAll } from "../serve_process.mjs";

export { root, stopAll };
export const wasmBuild = path.resolve(root, process.env.WSYNC_WASM_BUILD_DIR ?? "build/wasm");
export const chromiumPath = process.env.WSYNC_CHROMIUM ?? "/usr/bin/chromium";

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

/** Launches headless Chromium with the flags that work as root on these machines. */
export function launchBrowser() {
  if (!existsSync(chromiumPath)) {
    throw new Error(`wsync: no Chromium at ${chromiumPath}: apt-get install chromium (scripts/setup.sh does)`);
  }
  return chromium.launch({
    executablePath: chromiumPath,
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
}

/** Opens `url` in a new page, collecting console messages and page errors. */
export async function openPage(browser, url) {
  const page = await browser.newPage();
  const consoleMessages = [];
  const pageErrors = [];
  page.on("console", (m) => consoleMessages.push({ type: m.type(), text: m.text() }));
  page.on("pageerror", (e) => pageErrors.push(String(e)));
  await page.goto(url);
  return { page, consoleMessages, pageErrors };
}

/**
 * For a test file: before its tests, serve `dir()` with serve.py and launch
 * Chromium; after them, close both (and any server a failed test left
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
