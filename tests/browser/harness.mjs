// What every browser test shares: the real dev server (serve.py) on a free
// port, and Debian's Chromium driven by playwright-core.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
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
 * Starts `python3 serve.py DIR --port 0 ...args`; resolves to { url, close,
 * output } once it printed its URL.
 */
export function startServer(dir, args = []) {
  const child = spawn("python3", [path.join(root, "serve.py"), dir, "--port", "0", "--quiet", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  return new Promise((resolve, reject) => {
    const onData = (chunk) => {
      output += chunk;
      const match = /serving .* at (http:\/\/\S+)/.exec(output);
      if (match) {
        child.stdout.off("data", onData);
        resolve({
          url: match[1],
          output: () => output,
          close: () =>
            new Promise((done) => {
              if (child.exitCode !== null) return done();
              child.once("exit", done);
              child.kill("SIGINT");
            }),
        });
      }
    };
    child.stdout.setEncoding("utf8");
    child.stderr.setEncoding("utf8");
    child.stdout.on("data", onData);
    child.stderr.on("data", (chunk) => (output += chunk));
    child.once("exit", (code) => reject(new Error(`serve.py exited ${code} before serving:\n${output}`)));
  });
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
