// The offline engine: a module Web Worker running the engine package (engine/solo.py) under Pyodide, both
// served as the site's own static files (bin/build-offline) and kept by the service worker. The page posts
// {id, request} (a JSON string for engine.solo.handle) and gets {id, answer, ms}; {id, ready, ms...} once loaded
// ({id, warm: true}: once its memory snapshot is kept too).
//
// Starting Python and importing the engine takes seconds on a phone; a memory snapshot of the interpreter
// with the engine imported (Pyodide's makeMemorySnapshot, made at the first start and kept in Cache Storage
// under the engine's and Pyodide's digests) brings the next starts under a second. A snapshot that does not
// load is dropped and the engine starts the long way.
import { loadPyodide } from "../../vendor/pyodide/pyodide.mjs";

const VENDOR = new URL("../../vendor/", import.meta.url);
const INDEX = new URL("pyodide/", VENDOR).href;
const SNAPSHOTS = "callbreak-snapshot";
const ENGINE_DIR = "/home/pyodide/offline";

async function bytes(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  return new Uint8Array(await r.arrayBuffer());
}

async function digest(...parts) {
  const hexes = await Promise.all(parts.map(async (p) => Array.from(new Uint8Array(
    await crypto.subtle.digest("SHA-256", p)), (b) => b.toString(16).padStart(2, "0")).join("").slice(0, 16)));
  return hexes.join("-");
}

async function storedSnapshot(key) {
  try {
    const hit = await (await caches.open(SNAPSHOTS)).match(key);
    return hit ? new Uint8Array(await hit.arrayBuffer()) : null;
  } catch {
    return null; // no Cache Storage here
  }
}

async function keepSnapshot(key, snap) {
  try {
    const cache = await caches.open(SNAPSHOTS);
    for (const old of await cache.keys()) await cache.delete(old); // one engine at a time
    await cache.put(key, new Response(snap, { headers: { "Content-Type": "application/octet-stream" } }));
  } catch { /* the next start is a long one again */ }
}

function importEngine(pyodide, zip) {
  pyodide.unpackArchive(zip, "zip", { extractDir: ENGINE_DIR });
  pyodide.runPython(`import sys\nif '${ENGINE_DIR}' not in sys.path: sys.path.insert(0, '${ENGINE_DIR}')\nimport engine.solo`);
}

async function boot() {
  const started = performance.now();
  const [zip, lock] = await Promise.all([bytes(new URL("engine.zip", VENDOR)), bytes(new URL("pyodide-lock.json", INDEX))]);
  const key = new URL(`/__offline-snapshot/${await digest(zip, lock)}`, self.location.origin).href;
  let pyodide = null;
  let snapshot = "none";
  const stored = await storedSnapshot(key);
  if (stored) {
    try {
      pyodide = await loadPyodide({ indexURL: INDEX, _loadSnapshot: stored });
      importEngine(pyodide, zip); // the files again (the file system is not in the snapshot); the import is a no-op
      snapshot = "loaded";
    } catch {
      pyodide = null;
      await caches.delete(SNAPSHOTS).catch(() => {});
    }
  }
  let loaded = performance.now();
  let saving = Promise.resolve();
  if (!pyodide) {
    pyodide = await loadPyodide({ indexURL: INDEX, _makeSnapshot: true });
    loaded = performance.now();
    importEngine(pyodide, zip);
    try {
      saving = keepSnapshot(key, pyodide.makeMemorySnapshot()); // before any proxy of Python objects exists
      snapshot = "made";
    } catch { /* this Pyodide cannot: every start is a long one */ }
  }
  const handle = pyodide.pyimport("engine.solo").handle;
  const now = performance.now();
  // since the worker started: Pyodide up (interpreter and standard library), then the engine imported
  return { handle, ms: now - started, pyodide_ms: loaded - started, engine_ms: now - loaded, snapshot, saving };
}

const ready = boot();

self.onmessage = async (ev) => {
  const { id, request, warm } = ev.data || {};
  try {
    const { handle, ms, pyodide_ms: pyodideMs, engine_ms: engineMs, snapshot, saving } = await ready;
    if (warm) await saving; // started only to keep the snapshot: answer once it is kept
    if (request === undefined) {
      self.postMessage({ id, ready: true, ms, pyodide_ms: pyodideMs, engine_ms: engineMs, snapshot });
      return;
    }
    const t0 = performance.now();
    const answer = handle(request);
    self.postMessage({ id, answer, ms: performance.now() - t0 });
  } catch (e) {
    self.postMessage({ id, failed: String((e && e.message) || e) });
  }
};
