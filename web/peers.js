// The blurs a user might pick instead of a wsync pool, run on the demo's
// picture: OpenCV.js's cv.GaussianBlur and Photon's gaussian_blur, each
// single-threaded wasm. The build copies them into peers/ when the npm
// packages are installed (tests/browser/package.json; scripts/setup.sh
// installs them), and peers/peers.json names what it copied.

const DIR = "peers/";
// How the page and the benchmarks name each peer.
export const PEER_NAMES = { opencv: "OpenCV.js", photon: "Photon" };
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// What the build copied: { opencv: { version }, photon: { version } }, each
// only when present; {} when none is.
export async function installedPeers() {
  try {
    const response = await fetch(DIR + "peers.json");
    return response.ok ? await response.json() : {};
  } catch {
    return {};
  }
}

// OpenCV.js's module, once loaded. It is a thenable that resolves to
// itself, so it is kept here and never returned from an async function or
// a promise (adopting it would loop for ever).
let openCv;
async function loadOpenCv() {
  if (!openCv) {
    const response = await fetch(DIR + "opencv.js");
    if (!response.ok) throw new Error(`wsync demo: ${DIR}opencv.js did not load (${response.status})`);
    // opencv.js's wrapper hands the page's global `Module` to OpenCV's own
    // Emscripten runtime as its settings, and here that Module is the
    // demo's, another Emscripten program's: run it with a `Module` (and no
    // CommonJS or AMD loader) of its own. It sets window.cv.
    new Function("Module", "exports", "module", "define", await response.text()).call(globalThis);
    // opencv.js sets window.cv at once and fills it in when its wasm is ready.
    const cv = window.cv;
    for (let waited = 0; !cv.Mat; waited += 10) {
      if (waited > 60_000) throw new Error("wsync demo: OpenCV.js did not get ready within 60 s");
      await sleep(10);
    }
    openCv = cv;
  }
}

let photon; // the loaded glue, once
async function loadPhoton() {
  if (!photon) {
    // Photon's glue imports its wasm as an ES module, which browsers cannot
    // load: import the glue with that line replaced by a setter, and
    // instantiate the wasm with the glue as its imports.
    const source = await (await fetch(DIR + "photon/photon_rs_bg.js")).text();
    const importLine = /^import \* as wasm from '\.\/photon_rs_bg\.wasm';$/m;
    if (!importLine.test(source)) throw new Error("wsync demo: photon_rs_bg.js no longer imports its wasm as expected");
    const glueSource = source.replace(
      importLine,
      "let wasm; export function wsyncSetWasm(exports) { wasm = exports; }",
    );
    const url = URL.createObjectURL(new Blob([glueSource], { type: "text/javascript" }));
    try {
      const glue = await import(url);
      const { instance } = await WebAssembly.instantiateStreaming(fetch(DIR + "photon/photon_rs_bg.wasm"), {
        "./photon_rs_bg.js": glue,
      });
      glue.wsyncSetWasm(instance.exports);
      photon = glue;
    } finally {
      URL.revokeObjectURL(url);
    }
  }
  return photon;
}

// Mean absolute difference of the colour channels (alpha left out): how
// close a peer's blur is to wsync's, which shows they blur alike.
function meanDifference(a, b) {
  let sum = 0;
  for (let i = 0; i < a.length; i += 4) {
    sum += Math.abs(a[i] - b[i]) + Math.abs(a[i + 1] - b[i + 1]) + Math.abs(a[i + 2] - b[i + 2]);
  }
  return sum / ((a.length / 4) * 3);
}

// Runs each installed peer's blur `runs` times on `input` (RGBA, width x
// height), the same Gaussian as wsync's radius-r binomial blur: sigma
// sqrt(r / 2) over 2r + 1 taps, edges clamped. Photon takes only a whole
// sigma (its gaussian_blur's "radius", three box blurs). Returns
// { opencv: { name, version, times, difference }, photon: {...} } for those
// present in `installed` (installedPeers()); `difference` against
// `expected`, wsync's output.
export async function blurWithPeers({ installed, input, width, height, radius, runs, expected }) {
  const sigma = Math.sqrt(radius / 2);
  const results = {};
  if (installed.opencv) {
    await loadOpenCv();
    const cv = openCv;
    const src = new cv.Mat(height, width, cv.CV_8UC4);
    const dst = new cv.Mat();
    try {
      src.data.set(input);
      const size = new cv.Size(2 * radius + 1, 2 * radius + 1);
      const times = [];
      for (let r = 0; r < runs; ++r) {
        const start = performance.now();
        cv.GaussianBlur(src, dst, size, sigma, sigma, cv.BORDER_REPLICATE);
        times.push(performance.now() - start);
      }
      results.opencv = {
        name: PEER_NAMES.opencv,
        version: installed.opencv.version,
        times,
        difference: meanDifference(dst.data, expected),
      };
    } finally {
      src.delete();
      dst.delete();
    }
  }
  if (installed.photon) {
    const glue = await loadPhoton();
    const times = [];
    let output;
    for (let r = 0; r < runs; ++r) {
      const image = new glue.PhotonImage(input, width, height); // copies the picture in: not timed
      try {
        const start = performance.now();
        glue.gaussian_blur(image, Math.max(1, Math.round(sigma)));
        times.push(performance.now() - start);
        output = image.get_raw_pixels();
      } finally {
        image.free();
      }
    }
    results.photon = {
      name: PEER_NAMES.photon,
      version: installed.photon.version,
      times,
      difference: meanDifference(output, expected),
    };
  }
  return results;
}
