// serve.py as a child process of a test: started, awaited until it is
// listening, and never left behind.
//
// A server that outlives its test keeps the test file's process alive (its
// stdout pipe is an open handle), so one failed assertion between start and
// stop used to hang the whole run. Every server started here is tracked, and
// stopAll() (each test file's after() hook) kills whatever is still running.
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const servePy = path.join(root, "serve.py");

// The last line of serve.py's banner (it prints the banner in one write, so
// once this line is here every other banner line is too).
const BANNER_END = /^serve\.py: (pages will be cross-origin isolated|--no-isolation: pages will NOT be).*\n/m;
const URL_LINE = /^serve\.py: serving .* at (http:\/\/\S+:(\d+)\/)$/m;

const live = new Map(); // child -> its exited promise

/**
 * Starts `python3 serve.py ...args`. Returns
 *   started: resolves to { url, port } once the banner is out, or to null if
 *            serve.py exited first (a refused command line);
 *   exited:  resolves to { code, signal } once it exited and its output is in;
 *   output():  { stdout, stderr } so far;
 *   stop():  Ctrl-C (SIGINT), then SIGKILL if it is still running 5 s later;
 *            resolves to { code, signal }.
 */
export function startServe(args) {
  const child = spawn("python3", [servePy, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  // "close", not "exit": by then stdout and stderr are read to their end.
  const exited = new Promise((resolve) =>
    child.once("close", (code, signal) => {
      live.delete(child);
      resolve({ code, signal });
    }),
  );
  live.set(child, exited);
  const started = new Promise((resolve) => {
    child.stdout.setEncoding("utf8").on("data", (chunk) => {
      stdout += chunk;
      const url = URL_LINE.exec(stdout);
      if (url && BANNER_END.test(stdout)) resolve({ url: url[1], port: Number(url[2]) });
    });
    exited.then(() => resolve(null));
  });
  child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
  return {
    started,
    exited,
    output: () => ({ stdout, stderr }),
    stop: () => stop(child, exited),
  };
}

function stop(child, exited) {
  if (child.exitCode === null && child.signalCode === null) {
    child.kill("SIGINT");
    const kill = setTimeout(() => child.kill("SIGKILL"), 5000);
    exited.then(() => clearTimeout(kill));
  }
  return exited;
}

/** Kills every server this process started that is still running. */
export async function stopAll() {
  for (const child of live.keys()) child.kill("SIGKILL");
  await Promise.all(live.values());
}
