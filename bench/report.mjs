// Turns the JSON lines of one benchmark run into docs/benchmarks.md and SVG
// charts beside it. Every figure is a ratio against a baseline measured in
// the same process (or, for wasm vs native, the same run of bench/run).
//
//   node bench/report.mjs RESULTS_DIR OUT.md
import { readFileSync, writeFileSync, mkdirSync, existsSync } from "node:fs";
import { execFileSync } from "node:child_process";
import os from "node:os";
import path from "node:path";

const [dir, outMd] = process.argv.slice(2);
if (!dir || !outMd) {
  console.error("usage: node bench/report.mjs RESULTS_DIR OUT.md");
  process.exit(2);
}
const rows = [];
for (const file of ["native.jsonl", "wasm.jsonl", "browser.jsonl"]) {
  const p = path.join(dir, file);
  if (!existsSync(p)) continue;
  for (const line of readFileSync(p, "utf8").split("\n")) if (line.startsWith("{")) rows.push(JSON.parse(line));
}
const meta = existsSync(path.join(dir, "meta.json"))
  ? JSON.parse(readFileSync(path.join(dir, "meta.json"), "utf8"))
  : {};

const find = (platform, group, impl, params = "") =>
  rows.find((r) => r.platform === platform && r.group === group && r.impl === impl && r.params === params);
const fmt = (x, digits = 3) => (x === undefined || x === null || Number.isNaN(x) ? "-" : Number(x).toPrecision(digits));
// A figure beside the bound it is held to: digits enough that one on the
// wrong side never prints as the bound itself (a miss of 1.2497x as "1.25x").
const fmtVs = (x, bound) => {
  let digits = 3;
  while (digits < 8 && x !== bound && fmt(x, digits) === fmt(bound, digits)) ++digits;
  return fmt(x, digits);
};
const range = (r) => (r ? `${fmt(r.median)} (${fmt(r.min)}..${fmt(r.max)})` : "-");
const missed = new Set(); // keys of the targets this run missed: their notes are printed
const verdict = (ok, text, key) => {
  if (!ok && key) missed.add(key);
  return `${ok ? "**met**" : "**missed**"}: ${text}`;
};
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
// A point measured in rounds by separate processes (bench/run's each core
// alone) arrives as one line per round: they become one row.
{
  const points = new Map();
  for (const r of rows) {
    const key = [r.platform, r.group, r.impl, r.params].join("\n"),
      first = points.get(key);
    if (!first) {
      points.set(key, r);
      continue;
    }
    first.values = [...first.values, ...r.values];
    if (first.cores && r.cores) first.cores = [...first.cores, ...r.cores];
    Object.assign(first, {
      median: median(first.values),
      min: Math.min(...first.values),
      max: Math.max(...first.values),
    });
  }
  rows.splice(0, rows.length, ...points.values());
}
// How far the ratio median(a) / median(b) of one run could have landed: its
// 95% interval by the bootstrap (2,000 resamples of each sample). The
// generator (Marsaglia's xorshift32) starts from the same seed every time,
// so a report made again from the same results reads the same.
const medianRatioInterval = (a, b) => {
  let x = 2463534242;
  const random = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
  const resampled = (v) => median(Array.from(v, () => v[Math.floor(random() * v.length)]));
  const ratios = Array.from({ length: 2000 }, () => resampled(a) / resampled(b)).sort((p, q) => p - q);
  return [ratios[49], ratios[1949]];
};
const interval = ([low, high]) => `${fmt(low)}..${fmt(high)}`;

// CPU time per operation of the whole process, in microseconds: the
// median over the repetitions of (cores kept busy) x (time per operation),
// from a row's "cores" (bench::interleave). Rates (per ms) turn into
// times first. undefined where the CPU time could not be read.
function cpuPerOp(r) {
  if (!r?.cores?.length) return undefined;
  const perOpUs = (v) => (r.unit.includes("per ms") ? 1000 / v : r.unit.startsWith("ns") ? v / 1000 : v);
  return median(r.values.map((v, i) => r.cores[i] * perOpUs(v)));
}
const cpuFmt = (r) => fmt(cpuPerOp(r));

// The best of `as` against the best of `bs`: pick is Math.min for times (the
// best is the least), Math.max for rates. Series of one process that ran
// their repetitions in turns (bench::interleave; the same number of values)
// are compared pair by pair: the median of a.values[i] / b.values[i], whose
// repetitions ran moments apart, so the machine's slower drifts cancel out.
// Each a meets each b that way, and the answer is the best a against its
// hardest b. (Taking, per repetition, the better of two baselines instead
// would compare wsync with the luckier of two draws: on glibc std::mutex and
// pthread_mutex are one lock, and their repetitions differ by up to 1.5x.)
// Otherwise, the ratio of the medians.
function ratio(as, bs, pick = Math.min) {
  const all = [...as, ...bs];
  const n = as[0]?.values?.length;
  if (n && all.every((r) => r.values?.length === n && r.platform === as[0].platform)) {
    const hardest = pick === Math.min ? Math.max : Math.min;
    const paired = (a, b) => median(a.values.map((v, i) => v / b.values[i]));
    return pick(...as.map((a) => hardest(...bs.map((b) => paired(a, b)))));
  }
  return pick(...as.map((a) => a.median)) / pick(...bs.map((b) => b.median));
}
const out = [];
const say = (...lines) => out.push(...lines);
const svgDir = path.join(path.dirname(outMd), "benchmarks");
mkdirSync(svgDir, { recursive: true });

// A small line chart: series [{name, points: [[x, y]]}] -> an SVG file.
function chart(file, title, xLabel, yLabel, series, { ideal = false } = {}) {
  const W = 560,
    H = 320,
    L = 60,
    R = 180,
    T = 30,
    B = 44;
  const xs = series.flatMap((s) => s.points.map((p) => p[0]));
  const ys = series.flatMap((s) => s.points.map((p) => p[1]));
  const x0 = Math.min(...xs),
    x1 = Math.max(...xs),
    y1 = Math.max(...ys, ideal ? x1 : 0) * 1.08;
  const X = (x) => L + ((x - x0) / Math.max(1e-9, x1 - x0)) * (W - L - R);
  const Y = (y) => H - B - (y / y1) * (H - T - B);
  const colors = ["#3b7ddd", "#e4572e", "#29a36a", "#9a4cc9", "#f0a202", "#555", "#17becf"];
  const p = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="11">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${L}" y="18" font-size="13">${title}</text>`,
  ];
  for (let i = 0; i <= 4; ++i) {
    const y = (y1 / 4) * i;
    p.push(
      `<line x1="${L}" x2="${W - R}" y1="${Y(y)}" y2="${Y(y)}" stroke="#e6e9ee"/>`,
      `<text x="${L - 6}" y="${Y(y) + 4}" text-anchor="end">${fmt(y, 3)}</text>`,
    );
  }
  for (const x of [...new Set(xs)].sort((a, b) => a - b))
    p.push(`<text x="${X(x)}" y="${H - B + 16}" text-anchor="middle">${x}</text>`);
  p.push(
    `<text x="${(L + W - R) / 2}" y="${H - 8}" text-anchor="middle">${xLabel}</text>`,
    `<text x="14" y="${(T + H - B) / 2}" transform="rotate(-90 14 ${(T + H - B) / 2})" text-anchor="middle">${yLabel}</text>`,
  );
  if (ideal)
    p.push(`<line x1="${X(x0)}" y1="${Y(x0)}" x2="${X(x1)}" y2="${Y(x1)}" stroke="#999" stroke-dasharray="4 4"/>`);
  series.forEach((s, i) => {
    const c = colors[i % colors.length];
    p.push(
      `<path d="${s.points.map((q, j) => `${j ? "L" : "M"}${X(q[0])},${Y(q[1])}`).join(" ")}" fill="none" stroke="${c}" stroke-width="2"/>`,
    );
    for (const q of s.points) p.push(`<circle cx="${X(q[0])}" cy="${Y(q[1])}" r="3" fill="${c}"/>`);
    p.push(
      `<rect x="${W - R + 12}" y="${T + i * 18}" width="12" height="3" fill="${c}"/>`,
      `<text x="${W - R + 30}" y="${T + i * 18 + 5}">${s.name}</text>`,
    );
  });
  p.push("</svg>");
  writeFileSync(path.join(svgDir, file), p.join("\n") + "\n");
  return `![${title}](benchmarks/${file})`;
}

// Platforms: "native", and per Emscripten version "wasm X.Y.Z" (Node) and
// "chromium X.Y.Z", "firefox X.Y.Z", "webkit X.Y.Z" (the browser engines;
// bench/run names them), oldest toolchain first.
const byVersion = (prefix) =>
  [...new Set(rows.map((r) => r.platform).filter((pl) => pl === prefix || pl.startsWith(prefix + " ")))].sort((a, b) =>
    a.localeCompare(b, "en", { numeric: true }),
  );
const wasmPlatforms = byVersion("wasm");
const browserPlatforms = ["chromium", "firefox", "webkit"].flatMap(byVersion);
const isWasm = (pl) => pl === "wasm" || pl.startsWith("wasm ");
const slug = (pl) => pl.replace(/ /g, "-");
const platforms = [...wasmPlatforms, ...(rows.some((r) => r.platform === "native") ? ["native"] : [])];

say(
  "# wsync benchmarks",
  "",
  `Measured by \`bench/run\` on ${meta.date ?? new Date().toISOString().slice(0, 10)}: ${meta.cpu ?? os.cpus()[0]?.model}, ` +
    `${meta.cores ?? os.cpus().length} cores, ${meta.os ?? os.type()}; ${meta.toolchain ?? ""}.`,
  "Every point is the median of the repetitions, with min..max in parentheses. The implementations",
  "at a point run their repetitions in turns (repetition 1 of each, then 2, ...), and every ratio is",
  "the median of the per-repetition ratios against a baseline measured in the same process, moments",
  "apart (wasm vs native: the ratio of the medians of one run). Against several baselines, the ratio is",
  "the one against the baseline wsync did worst against. This is a shared 2-core machine:",
  "oversubscribed points (4 and 8 threads) measure scheduling as much as locks.",
  "`wasm X.Y.Z` runs the build of Emscripten X.Y.Z in Node (V8, the engine Chromium uses: Node 20 for 3.1.6, the",
  "current toolchain's own Node for the current one); `chromium X.Y.Z` is that build in headless Chromium,",
  "`firefox X.Y.Z` in headless Firefox ESR and `webkit X.Y.Z` in WebKitGTK's MiniBrowser on Xvfb (the test",
  "harness's drivers, tests/browser/harness.mjs). Both toolchains' builds are measured in the same run.",
  "",
);

// 1. uncontended
say(
  "## 1. Uncontended lock + unlock",
  "",
  "| platform | floor (2 RMWs) | wsync::Mutex | pthread_mutex | std::mutex | emscripten_lock_t | wsync / floor | pthread / wsync |",
  "|---|---|---|---|---|---|---|---|",
);
const targets = [];
const uncontendedMisses = []; // wasm builds that miss either target: wsync's and pthread_mutex's cost over the floor
for (const pl of platforms) {
  const f = find(pl, "uncontended", "floor (2 RMWs)"),
    w = find(pl, "uncontended", "wsync::Mutex");
  const pm = find(pl, "uncontended", "pthread_mutex"),
    sm = find(pl, "uncontended", "std::mutex"),
    em = find(pl, "uncontended", "emscripten_lock_t");
  if (!w) continue;
  const overFloor = ratio([w], [f]),
    pthreadOverWsync = ratio([pm], [w]);
  say(
    `| ${pl} | ${range(f)} | ${range(w)} | ${range(pm)} | ${range(sm)} | ${range(em)} | ${fmt(overFloor)} | ${fmt(pthreadOverWsync)} |`,
  );
  if (isWasm(pl)) {
    const floorMet = overFloor <= 1.1,
      pthreadMet = pthreadOverWsync >= 1.25;
    targets.push(verdict(floorMet, `${pl} wsync within 1.10x of the floor: ${fmtVs(overFloor, 1.1)}x`, "uncontended"));
    if (!floorMet || !pthreadMet) {
      uncontendedMisses.push(`${pl}: wsync ${fmt(overFloor)}x, pthread_mutex ${fmt(ratio([pm], [f]))}x`);
    }
    targets.push(
      verdict(
        pthreadMet,
        `${pl} wsync at least 1.25x faster than pthread_mutex: ${fmtVs(pthreadOverWsync, 1.25)}x`,
        "uncontended",
      ),
    );
  } else {
    targets.push(
      verdict(
        pthreadOverWsync >= 1,
        `native wsync no slower than glibc pthread_mutex: ${fmtVs(1 / pthreadOverWsync, 1)}x its time`,
      ),
    );
  }
}
say(
  "",
  "Units: ns per lock+unlock pair, one thread (natively a second thread exists, parked, so glibc takes its multi-threaded path).",
  "",
);

// Target 3's rule (issue 20): wsync is ahead of a peer when it leads on
// time, or is within 1.5x of its time while using less CPU per operation.
// `timeRatio`: wsync's time over the peer's (below 1: wsync leads).
const aheadByRule = (timeRatio, w, peer) =>
  timeRatio <= 1 || (timeRatio <= 1.5 && cpuPerOp(w) !== undefined && cpuPerOp(w) < cpuPerOp(peer));

// 2. contended
say(
  "## 2. Contended Mutex",
  "",
  "Throughput in acquisitions per ms (higher is better), each thread working 50 units outside the lock and 0 or 50 inside; fairness is max/min acquisitions per thread within one repetition (50 ms at the default WSYNC_BENCH_SCALE), the median of them (1 is perfectly fair; with more threads than cores, a thread that the scheduler leaves off the cores for a few time slices falls behind whatever the lock does). The longest wait is the longest single lock() in one more run of each implementation, twice as long, with every lock() timed (so not in the throughput runs). wsync's Mutex barges (wsync/mutex.hpp), for throughput, until a waiter has slept 1 ms; then the lock is handed to a sleeper (section 2b).",
  "",
);
const contendedMisses = [];
const contendedSplits = []; // points whose paired ratio and ratio of medians disagree
// A missed point's figures: throughput, and fairness (the busiest thread's acquisitions over the idlest's).
const withFairness = (x) => `${range(x)}, fairness ${fmt(x.fairness)}`;
const cimpls = [
  "wsync::Mutex",
  "wsync::Mutex, spin 0",
  "wsync::Mutex, spin 10x",
  "pthread_mutex",
  "std::mutex",
  "emscripten_lock_t",
  "emscripten_lock_t, busyspin",
];
const cbaselinesAll = cimpls.slice(3);
for (const pl of platforms) {
  // The columns this platform has (Emscripten's locks only in its builds).
  const has = (i) => rows.some((r) => r.platform === pl && r.group === "contended" && r.impl === i);
  const cols = cimpls.filter(has),
    cbaselines = cbaselinesAll.filter(has);
  // The per-implementation columns: wsync's figure, then each baseline's.
  const named = ["wsync", ...cbaselines].join(" / ");
  const perImpl = (r, f) => ["wsync::Mutex", ...cbaselines].map((i) => f(r[i])).join(" / ");
  say(
    `### ${pl}`,
    "",
    `| threads, inside | ${cols.join(" | ")} | wsync / best baseline | CPU us per acquisition, ${named} | fairness, ${named} | longest wait, ms, ${named} |`,
    `|---|${cols.map(() => "---").join("|")}|---|---|---|---|`,
  );
  let worst = Infinity;
  for (const t of [2, 4, 8]) {
    for (const inside of [0, 50]) {
      const params = `threads=${t} inside=${inside}`;
      const r = Object.fromEntries(cimpls.map((i) => [i, find(pl, "contended", i, params)]));
      if (!r["wsync::Mutex"]) continue;
      const peers = cbaselines.map((i) => r[i]).filter(Boolean);
      const vsBest = ratio([r["wsync::Mutex"]], peers, Math.max);
      // By target 3's rule against each peer (rates: time ratio = 1 / rate ratio).
      const ahead = peers.every((b) =>
        aheadByRule(1 / ratio([r["wsync::Mutex"]], [b], Math.max), r["wsync::Mutex"], b),
      );
      worst = Math.min(worst, ahead ? Math.max(1, vsBest) : vsBest);
      if (!ahead) {
        const noSpin = r["wsync::Mutex, spin 0"];
        contendedMisses.push(
          `${pl}, ${t} threads, ${inside} inside: ${fmt(vsBest)}x (wsync ${withFairness(r["wsync::Mutex"])}; ` +
            (noSpin ? `without its spin ${withFairness(noSpin)}; ` : "") +
            peers.map((b) => `${b.impl} ${withFairness(b)}`).join("; ") +
            ")",
        );
      }
      // Where the medians disagree with the paired ratio, say so: the
      // repetitions of such a point fell in different states of the host.
      const ofMedians = r["wsync::Mutex"].median / Math.max(...peers.map((b) => b.median));
      const split = ofMedians < 1 !== vsBest < 1;
      if (split)
        contendedSplits.push(
          `${pl}, ${t} threads, ${inside} inside (paired ${fmt(vsBest)}, medians ${fmt(ofMedians)})`,
        );
      say(
        `| ${t}, ${inside} | ${cols.map((i) => fmt(r[i]?.median)).join(" | ")} | ${fmt(vsBest)}${split ? " *" : ""} | ${perImpl(r, cpuFmt)} | ${perImpl(r, (x) => fmt(x?.fairness))} | ${perImpl(r, (x) => fmt(x?.longest_wait_ms))} |`,
      );
    }
  }
  const splits = contendedSplits.filter((x) => x.startsWith(`${pl},`)).length;
  const splitText = splits
    ? `; by the medians ${splits} point${splits > 1 ? "s" : ""} went the other way (marked *)`
    : "";
  if (worst !== Infinity)
    targets.push(
      verdict(
        worst >= 1,
        `${pl} contended: wsync ahead of every baseline at every point (faster, or within 1.5x using less CPU); worst point ${fmt(worst)}x${splitText}`,
        "contended",
      ),
    );
  say("");
}
if (contendedSplits.length) {
  say(
    `At the points marked *, the paired ratio and the ratio of the medians point different ways: ${contendedSplits.join("; ")}.`,
    "This host switches between a fast and a slow state for every lock at an empty critical section (one",
    "implementation at one point has measured 5e+3 and 2e+4 acquisitions per ms in consecutive repetitions), more",
    "often than a round of repetitions takes, so the medians depend on how many of each implementation's",
    "repetitions fell in the slow state. Read such a point as too close to call in this run.",
    "",
  );
}
for (const pl of wasmPlatforms) {
  const series = cimpls
    .filter((i) => !i.includes("spin"))
    .map((impl) => ({
      name: impl,
      points: [2, 4, 8].map((t) => [t, find(pl, "contended", impl, `threads=${t} inside=0`)?.median ?? 0]),
    }));
  say(
    chart(`contended-${slug(pl)}.svg`, `Contended Mutex, ${pl} (inside = 0)`, "threads", "acquisitions per ms", series),
    "",
  );
}
say(
  "The spin columns show the effect of the blocking spin limit (`wsync_set_spin_limit`: 0, and 10 times its default, docs/api.md; each thread learns its spin below the limit). The CPU column is the whole process's CPU time per acquisition (us), wsync's and then each baseline's in the order of the table; in the browser it cannot be read. The target counts wsync ahead of a baseline where it is faster, or within 1.5x of its time using less CPU (issue 20).",
  "",
);

// 2b. fairness
say(
  "## 2b. Fairness: Go's starvation scenario",
  "",
  "Go's TestMutexFairness, measured: one thread locks, sleeps 100 us inside, unlocks and relocks at once, in a loop; another sleeps 100 us and then locks, 10 times. Milliseconds for those 10 acquisitions (lower is better): median (min..max) of 7 interleaved rounds, and the longest single acquisition of all rounds. Target: wsync's median at most 50 ms and its worst round at most 250 ms, natively and in wasm (issue 16; before the handoff it was 2 s natively, 1.6 s in wasm).",
  "",
  "| platform | wsync::Mutex | pthread_mutex | std::mutex | longest acquisition, ms, wsync / pthread / std |",
  "|---|---|---|---|---|",
);
for (const pl of platforms) {
  const get = (i) => find(pl, "fairness", i);
  const w = get("wsync::Mutex");
  if (!w) continue;
  say(
    `| ${pl} | ${range(w)} | ${range(get("pthread_mutex"))} | ${range(get("std::mutex"))} | ${fmt(w.longest_wait_ms)} / ${fmt(get("pthread_mutex")?.longest_wait_ms)} / ${fmt(get("std::mutex")?.longest_wait_ms)} |`,
  );
  targets.push(
    verdict(
      w.median <= 50 && w.max <= 250,
      `${pl} fairness: wsync's 10 acquisitions ${fmt(w.median)} ms median (at most 50), ${fmt(w.max)} ms worst (at most 250)`,
      "fairness",
    ),
  );
}
say("");

// 3. ping-pong
const pimpls = [
  "wsync::BinarySemaphore",
  "wsync::Mutex + CondVar",
  "pthread_cond",
  "std::condition_variable",
  "std::binary_semaphore",
  "sem_t",
  "emscripten_semaphore_t",
  "emscripten_condvar_t",
];
say(
  "## 3. Wake latency: ping-pong",
  "",
  "Two threads hand a turn back and forth; each hop wakes the other. Microseconds per hop (lower is better), and below each the CPU time the whole process used per hop (us; 2 means both threads ran throughout). Target (issue 20): wsync's hop at most 1.5x the fastest peer's, and ahead of every peer by time, or within 1.5x of its time using less CPU.",
  "",
  `| platform | ${pimpls.join(" | ")} | wsync sem / pthread_cond | wsync sem / fastest peer |`,
  `|---|${pimpls.map(() => "---").join("|")}|---|---|`,
);
const pingpongMisses = []; // wsync's repetitions (us per hop, and cores) where a hop target is missed
for (const pl of platforms) {
  const get = (i) => rows.find((r) => r.platform === pl && r.group === "pingpong" && r.impl === i);
  const w = get("wsync::BinarySemaphore"),
    pc = get("pthread_cond");
  if (!w) continue;
  const vsCond = ratio([w], [pc]);
  const peers = pimpls.slice(2).map(get).filter(Boolean);
  const fastest = peers.reduce((a, b) => (b.median < a.median ? b : a));
  const vsFastest = ratio([w], [fastest]);
  say(
    `| ${pl} | ${pimpls.map((i) => range(get(i))).join(" | ")} | ${fmt(vsCond)} | ${fmt(vsFastest)} (${fastest.impl}) |`,
    `| CPU us per hop | ${pimpls.map((i) => cpuFmt(get(i))).join(" | ")} | | |`,
  );
  targets.push(
    verdict(
      vsCond <= 0.7,
      `${pl} ping-pong: wsync at most 0.7x the pthread_cond time: ${fmtVs(vsCond, 0.7)}x (${w.params})`,
    ),
  );
  const behind = peers.filter((b) => !aheadByRule(ratio([w], [b]), w, b)).map((b) => b.impl);
  const hopMet = vsFastest <= 1.5 && behind.length === 0;
  if (!hopMet) pingpongMisses.push(`${pl}: ${w.values.map((v, i) => `${fmt(v)} (${fmt(w.cores?.[i])})`).join(", ")}`);
  targets.push(
    verdict(
      hopMet,
      `${pl} ping-pong hop: wsync ${fmtVs(vsFastest, 1.5)}x the fastest peer's (${fastest.impl}; at most 1.5x)` +
        (behind.length ? `; not ahead of ${behind.join(", ")} by time or CPU` : "; ahead of every peer by time or CPU"),
      "pingpong",
    ),
  );
}
say("");

// 3b. a blocked waiter's cost
const bimpls = [
  "wsync::BinarySemaphore",
  "wsync::Mutex",
  "wsync::Latch",
  "std::binary_semaphore",
  "std::mutex",
  "sem_t",
  "emscripten_semaphore_t",
];
if (rows.some((r) => r.group === "blocked")) {
  say(
    "## 3b. What a blocked waiter costs",
    "",
    "A thread waits 300 ms for a release. Percent of a core used meanwhile (median of the repetitions): natively the waiter thread's own CPU clock; in wasm the whole process's CPU time in Node less that of the same 300 ms with nobody waiting (the `idle` column, paired repetition by repetition), so a figure below 0 says the waiter cost less than the idle run's own spread from one repetition to the next. Target (issue 20): wsync's waiters at most 1%.",
    "",
    `| platform | idle | ${bimpls.join(" | ")} |`,
    `|---|---|${bimpls.map(() => "---").join("|")}|`,
  );
  for (const pl of platforms) {
    const get = (i) => find(pl, "blocked", i, "wait=300ms");
    if (!get("wsync::BinarySemaphore")) continue;
    const idle = get("idle");
    const net = (r) => (r && idle ? median(r.values.map((v, i) => v - idle.values[i])) : r?.median);
    say(`| ${pl} | ${fmt(idle?.median)} | ${bimpls.map((i) => fmt(net(get(i)))).join(" | ")} |`);
    const worst = Math.max(...bimpls.slice(0, 3).map((i) => net(get(i))));
    targets.push(
      verdict(
        worst <= 1,
        `${pl} a waiter blocked for 300 ms uses at most 1% of a core: wsync's worst ${fmtVs(worst, 1)}%`,
      ),
    );
  }
  say("");
}

// 4. fork-join
const forkjoinWorkers = [
  ...new Set(rows.filter((r) => r.group === "forkjoin").map((r) => Number(/workers=(\d+)/.exec(r.params)[1]))),
].sort((a, b) => a - b);
const fimpls = ["wsync::Barrier", "wsync::Latch", "wsync::WaitGroup", "pthread_barrier", "std::barrier", "std::latch"];
say(
  "## 4. Fork-join",
  "",
  "Each round the coordinator releases K workers and waits for all of them (microseconds per round, lower is better). The first K is the common case, one worker fewer than the cores (the coordinator takes the last); the others oversubscribe this host. CPU: the whole process's CPU time per round (us) of the best wsync and the best baseline. Target (issue 20): at K = cores - 1, wasm within 2x of native; at every K, wsync ahead of every baseline by time, or within 1.5x using less CPU.",
  "",
);
for (const pl of platforms) {
  say(
    `### ${pl}`,
    "",
    `| workers | ${fimpls.join(" | ")} | best wsync / best baseline | CPU us per round, best wsync / best baseline |`,
    `|---|${fimpls.map(() => "---").join("|")}|---|---|`,
  );
  let worst = 0;
  for (const k of forkjoinWorkers) {
    const get = (i) =>
      rows.find(
        (r) => r.platform === pl && r.group === "forkjoin" && r.impl === i && r.params.startsWith(`workers=${k} `),
      );
    const r = Object.fromEntries(fimpls.map((i) => [i, get(i)]));
    if (!r["wsync::Barrier"]) continue;
    const vsBest = ratio(
      fimpls.slice(0, 3).map((i) => r[i]),
      fimpls.slice(3).map((i) => r[i]),
    );
    const best = (impls) => impls.map((i) => r[i]).reduce((a, b) => (b.median < a.median ? b : a));
    const bw = best(fimpls.slice(0, 3)),
      bb = best(fimpls.slice(3));
    worst = Math.max(worst, aheadByRule(vsBest, bw, bb) ? Math.min(vsBest, 1) : vsBest);
    say(
      `| ${k} | ${fimpls.map((i) => fmt(r[i]?.median)).join(" | ")} | ${fmt(vsBest)} | ${cpuFmt(bw)} / ${cpuFmt(bb)} |`,
    );
  }
  if (worst)
    targets.push(
      verdict(
        worst < 1,
        `${pl} fork-join: wsync ahead of every baseline at every K (faster, or within 1.5x using less CPU); worst K ${fmt(worst)}x the best baseline's time`,
        "forkjoin",
      ),
    );
  say("");
}
// wasm against native at the common K (one worker fewer than the cores).
{
  const k = forkjoinWorkers[0];
  const bestWsync = (pl) =>
    Math.min(
      ...fimpls
        .slice(0, 3)
        .map(
          (i) =>
            rows.find(
              (r) =>
                r.platform === pl && r.group === "forkjoin" && r.impl === i && r.params.startsWith(`workers=${k} `),
            )?.median ?? Infinity,
        ),
    );
  const native = bestWsync("native");
  for (const pl of wasmPlatforms) {
    const w = bestWsync(pl);
    if (w === Infinity || native === Infinity) continue;
    targets.push(
      verdict(
        w / native <= 2,
        `${pl} fork-join at ${k} worker${k > 1 ? "s" : ""} (cores - 1): best wsync ${fmtVs(w / native, 2)}x native's (at most 2x)`,
      ),
    );
  }
}
for (const pl of wasmPlatforms) {
  const series = fimpls.map((impl) => ({
    name: impl,
    points: forkjoinWorkers.map((k) => [
      k,
      rows.find(
        (r) => r.platform === pl && r.group === "forkjoin" && r.impl === impl && r.params.startsWith(`workers=${k} `),
      )?.median ?? 0,
    ]),
  }));
  say(chart(`forkjoin-${slug(pl)}.svg`, `Fork-join, ${pl}`, "workers", "us per round", series), "");
}

// 5. main thread
if (browserPlatforms.length)
  say(
    "## 5. The browser main thread, per engine",
    "",
    "Emscripten's own main-thread waits are here: emscripten_atomic_wait_suspending (6.0.0 and later) and pthread_mutex_lock, and emscripten_lock_async_acquire, the peer of Mutex::lock_async. That one is defined only in the Wasm Workers library (libwasm_worker.js), which a -pthread link leaves out, so it runs in the same program linked with -sWASM_WORKERS too, on its own page, taking turns there with Mutex::lock_async and that page's floor.",
    "",
  );
for (const cpl of browserPlatforms) {
  const idle = find(cpl, "mainthread", "idle page", "1 s");
  if (!idle) continue;
  say(
    `### ${cpl}`,
    "",
    `A pthread holds a Mutex (or owes a WaitGroup a done()) for 1 s while the page's main thread waits. Idle page: ${fmt(idle.median)} frames per second.`,
    "",
    "| wait | frames in 1 s | of idle | longest frame gap (ms) | long-task time (ms) | wake latency (ms) |",
    "|---|---|---|---|---|---|",
  );
  for (const r of rows.filter((x) => x.platform === cpl && x.group === "mainthread" && x.impl !== "idle page")) {
    say(
      `| ${r.impl} | ${fmt(r.median)} | ${fmt((100 * r.median) / idle.median)}% | ${fmt(r.maxFrameGapMs)} | ${fmt(r.busyMs)} | ${fmt(r.latencyMs)} |`,
    );
    if (r.impl.startsWith("wsync"))
      targets.push(
        verdict(
          r.median >= 0.9 * idle.median,
          `${cpl} ${r.impl}: at least 90% of the idle frame rate: ${fmt((100 * r.median) / idle.median)}%`,
        ),
      );
  }
  say(
    "",
    "| wait | wake latency median (ms) | p95 (ms) | min..max | floor median (ms) | floor p95 (ms) | median over the floor | its 95% interval |",
    "|---|---|---|---|---|---|---|---|",
  );
  // Runs from before the floor's waits were kept have no interval.
  const overFloorInterval = (r) => (r.floorValues ? medianRatioInterval(r.values, r.floorValues) : undefined);
  for (const r of rows.filter((x) => x.platform === cpl && x.group === "wakelatency")) {
    const spread = overFloorInterval(r);
    const floor =
      r.floorMs === undefined
        ? " | | | "
        : `${fmt(r.floorMs)} | ${fmt(r.floorP95)} | ${fmt(r.median / r.floorMs)} | ${spread ? interval(spread) : "-"}`;
    say(`| ${r.impl} | ${fmt(r.median)} | ${fmt(r.p95)} | ${fmt(r.min)}..${fmt(r.max)} | ${floor} |`);
    targets.push(verdict(r.median < 2, `${cpl} ${r.impl}: median wake latency under 2 ms: ${fmt(r.median)} ms`));
    if (r.impl.startsWith("wsync") && r.floorMs)
      targets.push(
        verdict(
          r.median / r.floorMs <= 1.25,
          `${cpl} ${r.impl}: median wake latency at most 1.25x the bare Atomics.waitAsync floor in the same page: ${fmtVs(r.median / r.floorMs, 1.25)}x` +
            (spread ? ` (95% interval ${interval(spread)})` : ""),
          "mainthread-latency",
        ),
      );
  }
  // Target 4 on the main thread: wsync's wait against Emscripten's own for
  // the same thing, each over the floor, both from the same page (the
  // Emscripten lock runs in the page linked with Wasm Workers, and
  // Mutex::lock_async beside it there).
  const latencyOf = (impl) => rows.find((x) => x.platform === cpl && x.group === "wakelatency" && x.impl === impl);
  const overFloor = (impl) => {
    const r = latencyOf(impl);
    return r?.floorMs ? r.median / r.floorMs : undefined;
  };
  // Runs from before lock_async ran in the Wasm Workers page have only the plain page's.
  const lockAsync = ["wsync Mutex::lock_async (linked with Wasm Workers)", "wsync Mutex::lock_async"].find(
    (impl) => overFloor(impl) !== undefined,
  );
  const peers = [
    [lockAsync, "emscripten_lock_async_acquire"],
    ...["Asyncify", "JSPI"].map((m) => [`wsync WaitGroup::wait (${m})`, `emscripten_atomic_wait_suspending (${m})`]),
  ];
  // A latency is the difference of two readings of timeOrigin + now(), about 1.8e12 ms, which a double
  // holds to a fraction of a microsecond (and WebKitGTK's clock here steps by 20 us): two medians no
  // further apart than the smallest gap between any two of the page's latencies are the same reading.
  const readings = [
    ...new Set(rows.filter((x) => x.platform === cpl && x.group === "wakelatency").flatMap((x) => x.values ?? [])),
  ].sort((p, q) => p - q);
  const resolution = readings.length > 1 ? Math.min(...readings.slice(1).map((v, i) => v - readings[i])) : 0;
  for (const [ours, theirs] of peers) {
    const a = overFloor(ours),
      b = overFloor(theirs);
    if (a === undefined || b === undefined) continue;
    // Both over the same floor: their ratio is that of their own medians.
    const spread = latencyOf(ours).floorValues
      ? ` (wsync's median / theirs: ${fmt(a / b)}, 95% interval ${interval(medianRatioInterval(latencyOf(ours).values, latencyOf(theirs).values))})`
      : "";
    const gap = latencyOf(ours).median - latencyOf(theirs).median;
    const sameReading = gap > 0 && gap <= resolution;
    const tie = sameReading ? `; the same reading: ${fmt(gap * 1000)} us apart, the page's finest step` : "";
    targets.push(
      verdict(
        a <= b || sameReading,
        `${cpl} ${ours}: wake latency over the floor at most ${theirs}'s: ${fmt(a)}x against ${fmt(b)}x${spread}${tie}`,
        "mainthread-peers",
      ),
    );
  }
  say(
    "",
    "Wake latency: from just before the pthread's unlock (or done(), or its store and notify) to the main thread running again. " +
      "The floor: the page's own Atomics.waitAsync on a bare word of the same memory, which a pthread notifies. A page's waits take turns (one of each, then the next round, after five rounds unmeasured), each followed by one of the floor, and the floor is all of those; each wait follows the one before at once. " +
      "The interval: where the ratio of the two medians lands in 95% of bootstrap resamples of both samples, so a ratio whose interval straddles the bound is one this run could not settle. " +
      "Firefox runs with its clock unrounded (it rounds performance.now() to 20 us steps on an isolated page).",
    "",
  );
  const sizes = rows.filter((x) => x.platform === cpl && x.group === "wasmsize");
  if (sizes.length) {
    const plain = sizes.find((r) => r.impl === "plain");
    say(
      `Size of the same program (${sizes[0].params}) linked three ways, wasm only (KB):`,
      "",
      "| linked | wasm (KB) | of plain |",
      "|---|---|---|",
    );
    for (const r of sizes) say(`| ${r.impl} | ${fmt(r.median)} | ${fmt((100 * r.median) / plain.median)}% |`);
    say("");
  }
}

// 6. the filter
say(
  "## 6. The image filter",
  "",
  "Blur radius 8 on a 1024 x 1024 picture (ms per run), wsync's pool vs pthread_create + pthread_barrier + pthread_join per run; speedup against the same implementation on 1 thread.",
  "",
);
const fplats = ["native", ...wasmPlatforms, ...browserPlatforms].filter((pl) =>
  rows.some((r) => r.platform === pl && r.group === "filter"),
);
const speedSeries = [];
const filterSpeedups = [];
for (const pl of fplats) {
  const fr = rows.filter((r) => r.platform === pl && r.group === "filter");
  const threadsOf = (r) => Number(/threads=(\d+)/.exec(r.params)[1]);
  const cores = Number(/cores=(\d+)/.exec(fr[0].params)[1]);
  const pool = fr.filter((r) => r.impl === "wsync pool").sort((a, b) => threadsOf(a) - threadsOf(b));
  const made = fr.filter((r) => r.impl.startsWith("pthread_create"));
  const ceiling = fr.filter((r) => r.impl.startsWith("ceiling"));
  const made1 = made.find((x) => threadsOf(x) === 1);
  const nativePool = (t) =>
    isWasm(pl)
      ? rows.find(
          (x) => x.platform === "native" && x.group === "filter" && x.impl === "wsync pool" && threadsOf(x) === t,
        )
      : undefined;
  say(
    `### ${pl} (${cores} cores)`,
    "",
    "| threads | wsync pool | speedup | pthread create/join | speedup |" +
      (isWasm(pl) ? " wasm / native (pool) |" : ""),
    "|---|---|---|---|---|" + (isWasm(pl) ? "---|" : ""),
  );
  for (const r of pool) {
    const t = threadsOf(r);
    const m = made.find((x) => threadsOf(x) === t);
    const nat = nativePool(t);
    say(
      `| ${t} | ${range(r)} | ${fmt(ratio([pool[0]], [r]))} | ${range(m)} | ${m && made1 ? fmt(ratio([made1], [m])) : "-"} |` +
        (isWasm(pl) ? ` ${nat ? fmt(ratio([r], [nat])) : "-"} |` : ""),
    );
  }
  const atCores = pool.find((r) => threadsOf(r) === cores);
  const speedup = atCores ? ratio([pool[0]], [atCores]) : undefined; // the pool's, at `cores` threads
  const ceil1 = ceiling.find((x) => threadsOf(x) === 1),
    ceilAt = ceiling.find((x) => threadsOf(x) === cores);
  const ceilingSpeedup = ceil1 && ceilAt ? ratio([ceil1], [ceilAt]) : undefined;
  if (ceilingSpeedup !== undefined) {
    say(
      "",
      `The host's ceiling in the same run: the same blur in bands that wait for nothing (each computes its`,
      `first pass 8 rows past its edges instead of meeting a barrier), on 1 and on ${cores} threads, timed from the moment all run:`,
      `${range(ceil1)} and ${range(ceilAt)} ms, a speedup of ${fmt(ceilingSpeedup)} (the pool's is ${fmt(speedup / ceilingSpeedup)}x that).`,
    );
  }
  // Each core alone: the best the cores could do together is the job split
  // in proportion to their speeds, 1 / (sum of 1 / each one's time).
  const coreOf = (r) => Number(/core=(\d+)/.exec(r.params)[1]);
  const alone = fr.filter((r) => r.impl.startsWith("one core alone")).sort((a, b) => coreOf(a) - coreOf(b));
  const together = alone.length === cores ? 1 / alone.reduce((sum, r) => sum + 1 / r.median, 0) : undefined;
  const reached = together !== undefined && atCores ? together / atCores.median : undefined;
  if (reached !== undefined) {
    const how =
      pl === "native"
        ? "this thread pinned to it, in turns with the runs above"
        : "the whole Node process pinned to it by taskset, three rounds right after the runs above";
    say(
      "",
      `Each core alone, the same band on one thread (${how}): ${alone.map((r) => `core ${coreOf(r)} ${range(r)}`).join(", ")} ms.`,
      `Split in proportion to those speeds, the ${cores} cores could at best take ${fmt(together)} ms together; the pool's`,
      `${cores} threads took ${fmt(atCores.median)}: ${fmt(100 * reached)}% of that best speed (the speedup target, ${fmt(0.85 * cores)}, is 85% of ${cores} equal cores' best).`,
    );
  }
  if (atCores) {
    const madeAt = made.find((x) => threadsOf(x) === cores);
    const ceilText = ceilingSpeedup !== undefined ? `, the ceiling ${fmt(ceilingSpeedup)}x` : "";
    if (made1 && madeAt)
      filterSpeedups.push(
        `${pl}: the pool ${fmt(speedup)}x, pthread_create/join ${fmt(ratio([made1], [madeAt]))}x${ceilText}`,
      );
    const ceilNote =
      ceilingSpeedup === undefined
        ? ""
        : ` (the host's ceiling in this run: ${fmt(ceilingSpeedup)}` +
          (reached !== undefined ? `; the pool ran at ${fmt(100 * reached)}% of the cores' best speed` : "") +
          ")";
    // The speedup target is natively, in Node and in Chromium; Firefox's and
    // WebKitGTK's are shown only (WebKitGTK reports more cores than this
    // host has, so its pool is oversubscribed).
    if (!pl.startsWith("webkit") && !pl.startsWith("firefox"))
      targets.push(
        verdict(
          speedup >= 0.85 * cores,
          `${pl} filter: speedup at ${cores} threads at least ${fmt(0.85 * cores)}: ${fmtVs(speedup, 0.85 * cores)}${ceilNote}`,
          "filter-speedup",
        ),
      );
    const nat = nativePool(cores);
    if (nat) {
      const vsNative = ratio([atCores], [nat]);
      targets.push(
        verdict(
          vsNative <= 1.6,
          `${pl} filter within 1.6x of native at ${cores} threads: ${fmtVs(vsNative, 1.6)}x`,
          "filter-native",
        ),
      );
    }
  }
  const cpu = rows.find((r) => r.platform === pl && r.group === "filtercpu");
  if (browserPlatforms.includes(pl)) {
    say(
      "",
      "Here pthread_create/join runs on the page's main thread, where Emscripten's pthread_join cannot block",
      "and spins: it takes one of the cores from the workers it waits for.",
    );
  }
  if (cpu) {
    const left = cores - cpu.median / 1000;
    say(
      "",
      `Meanwhile Chromium's threads other than the pool's workers used ${fmt(cpu.median)} ms of CPU per second`,
      `(the busiest, ms per s: ${cpu.busiest}), on the same ${cores} cores: mostly the page's frames, 60 a second`,
      `(an empty requestAnimationFrame loop alone cost this host's headless Chromium about 120 ms per second).`,
      `That left the workers at most ${fmt(left)} cores, while the 1-thread run had one to itself: the pool's`,
      `speedup of ${fmt(speedup)} is ${fmt(speedup / left)} of that bound.`,
    );
  }
  speedSeries.push({ name: `${pl}, wsync pool`, points: pool.map((r) => [threadsOf(r), ratio([pool[0]], [r])]) });
  say("");
}
if (speedSeries.length)
  say(
    chart("filter-speedup.svg", "Image filter speedup, wsync pool", "threads", "speedup vs 1 thread", speedSeries, {
      ideal: true,
    }),
    "",
  );

// 6b. the blur against what users would pick instead
const peerPlatforms = browserPlatforms.filter((pl) => rows.some((r) => r.platform === pl && r.group === "filterpeers"));
if (peerPlatforms.length) {
  say(
    "## 6b. The blur against OpenCV.js and Photon",
    "",
    "The demo page's blur (radius 8 on the 1024 x 1024 sample) on wsync's pool at one thread per core, and the same blur by OpenCV.js (`cv.GaussianBlur`, a 17 x 17 Gaussian of sigma 2, edges replicated) and by Photon (`gaussian_blur` of sigma 2, three box blurs), each single-threaded wasm, from npm (web/peers.js; installed by scripts/setup.sh). Milliseconds per run, median (min..max), in turns in the same page; the difference is the mean absolute difference from wsync's output per colour channel (0..255), which shows the blurs match. Target (issue 20): the pool faster than both, in Chromium and Firefox.",
    "",
    "| engine | wsync pool | OpenCV.js | Photon | wsync / fastest other | difference, OpenCV.js / Photon |",
    "|---|---|---|---|---|---|",
  );
  for (const pl of peerPlatforms) {
    const got = rows.filter((r) => r.platform === pl && r.group === "filterpeers");
    const w = got.find((r) => r.impl.startsWith("wsync"));
    const cv = got.find((r) => r.impl.startsWith("OpenCV.js"));
    const ph = got.find((r) => r.impl.startsWith("Photon"));
    const others = [cv, ph].filter(Boolean);
    const fastest = others.reduce((a, b) => (b.median < a.median ? b : a));
    const vs = ratio([w], [fastest]);
    say(
      `| ${pl} | ${range(w)} (${w.threads} threads) | ${range(cv)} (${cv?.impl.replace("OpenCV.js ", "") ?? "-"}) | ${range(ph)} (${ph?.impl.replace("Photon ", "") ?? "-"}) | ${fmt(vs)} | ${fmt(cv?.difference)} / ${fmt(ph?.difference)} |`,
    );
    if (/^(chromium|firefox)/.test(pl))
      targets.push(
        verdict(
          others.every((o) => ratio([w], [o]) < 1),
          `${pl} blur: the wsync pool faster than OpenCV.js and Photon: ${fmt(vs)}x the fastest's time (${fastest.impl})`,
          "filter-peers",
        ),
      );
  }
  say("");
}

// The toolchains side by side: wsync's figure in the newest wasm build over
// the same figure in the oldest, from this run.
if (wasmPlatforms.length > 1) {
  const [oldest, newest] = [wasmPlatforms[0], wasmPlatforms.at(-1)];
  const rowsOf = (pl) => {
    const chromium = pl.replace(/^wasm/, "chromium");
    const get = (platform, group, impl, params) =>
      rows.find(
        (r) =>
          r.platform === platform &&
          r.group === group &&
          r.impl === impl &&
          (params === undefined || r.params === params || r.params.startsWith(params)),
      );
    return [
      ["uncontended lock + unlock (ns)", get(pl, "uncontended", "wsync::Mutex")],
      [
        "contended, 2 threads, 0 inside (acquisitions per ms, higher is better)",
        get(pl, "contended", "wsync::Mutex", "threads=2 inside=0"),
      ],
      ["ping-pong hop, wsync::BinarySemaphore (us)", get(pl, "pingpong", "wsync::BinarySemaphore")],
      ["fork-join, 2 workers, wsync::Barrier (us per round)", get(pl, "forkjoin", "wsync::Barrier", "workers=2 ")],
      [
        "blocked 300 ms, wsync::BinarySemaphore (% of a core, before idle)",
        get(pl, "blocked", "wsync::BinarySemaphore"),
      ],
      ["filter, wsync pool at 2 threads (ms)", get(pl, "filter", "wsync pool", "threads=2")],
      [
        "Chromium: WaitGroup wait_async wake latency (ms)",
        rows.find((r) => r.platform === chromium && r.group === "wakelatency"),
      ],
      ["Chromium: filter, wsync pool at 2 threads (ms)", get(chromium, "filter", "wsync pool", "threads=2")],
    ];
  };
  const a = rowsOf(oldest),
    b = rowsOf(newest);
  say(
    `## 7. ${newest} against ${oldest}`,
    "",
    "wsync's medians in the two builds of this run, and their ratio (newest / oldest).",
    "",
    `| figure | ${oldest} | ${newest} | ratio |`,
    "|---|---|---|---|",
  );
  a.forEach(([what, ra], i) => {
    const rb = b[i][1];
    if (ra || rb)
      say(`| ${what} | ${fmt(ra?.median)} | ${fmt(rb?.median)} | ${ra && rb ? fmt(rb.median / ra.median) : "-"} |`);
  });
  say("");
}

say("## Targets", "", ...targets.map((t) => `- ${t}`), "");

// What a miss means: printed only for the targets this run missed.
const notes = {
  uncontended: [
    `Uncontended, each lock's time over the floor's (${uncontendedMisses.join("; ")}): wsync's lock + unlock is`,
    "two atomic RMWs, as the floor is (one per call), so where the toolchain's own pthread_mutex comes within",
    "1.25x of the floor, only a lock cheaper than the floor could be 1.25x faster than it. The target was set",
    "against 3.1.6's musl, whose pthread_mutex cost more. wsync releases with a fetch_and (it keeps a pending",
    "handoff), for which x86-64 has no instruction that returns the old value: it becomes a compare-and-swap",
    "loop, where the floor's release is one swap. In every bench run before that of a90bd53 (2026-12-07)",
    "wsync came 1.02x to 1.04x the floor. On the host of that run, one thread's CAS plus release, measured",
    "on its own (medians of 7 x 2e7), took 16.2 to 17.1 ns with a fetch_and, 12.5 to 13.0 with a swap and",
    "12.9 to 13.3 with a fetch_sub (a single locked add) in wasm, and 14.3 against 10.5 and 10.8 natively.",
  ],
  contended: [
    `Contended: ${contendedMisses.join("; ")}. On this shared 2-vCPU host the cost of moving a cache line`,
    "between the two cores changes from moment to moment (a round trip measured 55 ns at some moments and over",
    "300 ns at others, on 2026-12-03), and with it every lock's throughput at an empty critical section (one",
    "implementation at one point has measured 5.7e+3 and 3.6e+4 acquisitions per ms within one run). A wsync",
    "Mutex waiter spins briefly (about 1 us in wasm, 4 pauses natively) and backs off between loads, so as to steal",
    "the holder's line less often (docs/how-it-works.md). Where a baseline led wsync at 2 threads (wasm",
    "3.1.6, in four of the eight bench runs of 2026-12-06 and 2026-12-07; this file's history in git), it let",
    "one thread take the lock again and again: the busiest thread made 3.1 to 8.4 times the acquisitions of",
    "the other, wsync's 1.2 to 2.5 times. In the other four wsync led at both 2-thread points. wsync's waiter",
    "takes the lock between the holder's turns (its spin catches the unlock), and one passed over past 1 ms",
    "gets it handed over (the fairness target); the Mutex without its spin, whose waiter sleeps and leaves",
    "the holder to itself for a wake's length, came 1.08 to 1.20 times the default's throughput at 50 inside",
    "in the five runs where the locks ran at half their best rate empty.",
  ],
  forkjoin: [
    "Fork-join: the waiters spin, then (natively) yield 16 times, then sleep; a wait for other threads' work",
    "spins an eighth of the budget natively, as briefly as libstdc++'s atomic wait, and a quarter in wasm",
    "(docs/how-it-works.md). With K + 1 threads on 2 cores, the points move by tens of percent from run to",
    "run. At 1 worker wsync's Latch and libc++'s std::latch both spin through a round: 0.260 against 0.282 us",
    "in the bench run of 6ef5ec7, 0.556 against 0.464 in that of a90bd53 (both 2026-12-07), whose builds",
    "spin the same for events; every lock in the second run was slower (see the uncontended note).",
  ],
  pingpong: [
    "Ping-pong hop: with both threads spinning, a hop is a cache-line round trip between the two cores, which",
    "this host serves at 55 to 300 ns from moment to moment (see the contended note); in one run of 5",
    "repetitions, wsync's and libc++'s std::binary_semaphore's hops (both spinning) have each moved between",
    "0.1 and 2 us, so the paired ratio of one run can land either side of 1.5x. wsync's repetitions in this",
    `run, us per hop (and cores): ${pingpongMisses.join("; ")}. One near 2 cores had both threads spinning`,
    "throughout; one near 1.2 had a thread asleep for much of it, the partly trapped state of",
    "docs/how-it-works.md (How long a waiter spins). A single wake in Node on this host (notify to the sleeper",
    "running) takes 5 to 12 us at some moments and 25 to 60 at others, so a release's whole spin in wasm is",
    "262144 pauses (about 130 us) since a90bd53: at 65536 (32 us), wsync's 3.1.6 hop was 8.3 times std's",
    "(the median of four runs, twice), and the first repetition of every 6.0.5 process was trapped (770 to",
    "1,730 sleeps in 20,000 hops). 6.0.5's first repetitions in Node 24 can still be caught there, at about",
    "1.2 cores, while std::binary_semaphore's run at 1.6 to 1.8: why, is not yet known.",
  ],
  "mainthread-peers": [
    "Main-thread waits against Emscripten's own: both run from the engine's promise to the caller's code, and",
    "on this host a main-thread wake spreads over 2x between its quartiles, so the ratio of two medians of 80",
    "waits fell either side of 1 by up to a tenth, even taking turns in one page; hence 400 waits each. Where",
    "wsync trails, Mutex::lock_async against emscripten_lock_async_acquire, its own path from the engine's",
    "promise to the callback is the longer: timed with the page's Atomics.waitAsync wrapped to stamp each",
    "settled promise (2026-12-07, the pages linked with Wasm Workers, the mean of each load's middle 80% of",
    "150 wakes, 4 loads), by 2.8 us in Chromium and 8.4 us in Firefox. About 1 to 2 us of that in Chromium",
    "and 3 in Firefox is Emscripten's callUserCallback: wsync calls back through it, as Emscripten calls its",
    "event loop's callbacks, so that an exit() or an exception in the callback is handled",
    "(emscripten_lock_async_acquire calls back without it). The rest is wsync's wasm path: the waiter's",
    "attempt, then freeing the wait. Chromium's clock steps by 5 us here and WebKitGTK's by 20 us, so a",
    "difference this small moves a median by a whole step or none. What was measured and cut on the way:",
    "docs/how-it-works.md.",
  ],
  "mainthread-latency": [
    "Main-thread wake latency over the floor: after the engine resolves the wait, wsync's path adds the",
    "promise of its sleep, a call into wasm and the lock's or counter's own attempt; the bare floor resumes",
    "straight from the engine's promise. In Firefox that difference has measured 40 to 80 us on 120 to 220.",
  ],
  "filter-speedup": [
    `The filter's speedup (${filterSpeedups.join("; ")}). The ceiling is the host's: the same blur in bands`,
    "that never wait for each other (in a browser on workers, as the pool's), timed from the moment all of",
    "them run. It splits the rows evenly, where the pool's threads take chunks in turn, so a core that",
    "something else slows holds it back more than the pool. Measured on 2026-12-03, one core's speed",
    "here changes by up to 1.7x from moment to moment (a multiply loop on one thread: 96 to 177 ms), and the",
    "blur's half bands run side by side took from as long as one alone to 1.5x as long, outside any pool. In",
    "wasm, timing each worker's passes inside the pool showed the same: both bands' arithmetic stretches",
    "together, and the wait at the Barrier is 0 to 8 ms. In Chromium the page's own threads (the main thread",
    "painting, the compositor, the GPU process) share the two cores with the workers (quoted under the table).",
    "At times the two cores run at two speeds: on 2026-12-06 nine interleaved runs natively took 26.6 to",
    "36.9 ms on one thread, most near 27 or near 36, and pinned to one core (taskset) 33.2 to 36.6 ms on one",
    "and 26.3 to 27.8 on the other; later that day both took 27.9, and later still the other core was the",
    "slow one (34.0 against 26.6). The 1-thread median, every speedup's numerator, then lands on either",
    "core, so one implementation's speedup moves by up to 1.35x from run to run, the ceiling's included.",
    "Hence each core's time alone under the tables natively and in Node, and the pool's time at 2 threads",
    "against the best the cores could do together at their measured speeds.",
  ],
  "filter-native": [
    "wasm against native: measured on 2026-12-03, one pass over half the picture takes wasm 1.0 to 1.4x the",
    "native time (pass 0: 16.6 ms against 12 to 15; pass 1: about 24.5 against 24 to 25), so a miss here",
    "comes from the 2-thread runs stretching as described above, more than from the engine's code.",
  ],
};
const shown = Object.keys(notes).filter((k) => missed.has(k));
if (shown.length)
  say("## Reading the misses", "", ...shown.flatMap((k) => notes[k].map((line, i) => (i ? "  " : "- ") + line)), "");
writeFileSync(outMd, out.join("\n"));
console.log(`bench/report.mjs: wrote ${outMd} and ${svgDir}/*.svg (${rows.length} points)`);
