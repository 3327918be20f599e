// Offline matches in this browser (IndexedDB "callbreak-offline", store "matches", by local id):
//   { id, status: "playing" | "finished" | "uploaded" | "refused", save (engine.solo's log), replay (at the end),
//     server_id (once uploaded), reason (a refusal's), updated }.
// A match is written after every move, so closing the app mid-match resumes it (the page opens the one playing).
const DB = "callbreak-offline";
const STORE = "matches";

let opening = null;
function db() {
  opening ||= new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE, { keyPath: "id" });
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  return opening;
}

async function run(mode, fn) {
  const conn = await db();
  return new Promise((resolve, reject) => {
    const tx = conn.transaction(STORE, mode);
    const result = fn(tx.objectStore(STORE));
    tx.oncomplete = () => resolve(result && "result" in result ? result.result : undefined);
    tx.onerror = () => reject(tx.error);
  });
}

export const put = (record) => run("readwrite", (s) => s.put({ ...record, updated: Date.now() }));
export const get = (id) => run("readonly", (s) => s.get(id));
export const all = () => run("readonly", (s) => s.getAll()).then((list) => list || []);

/** The match being played, if any (the newest). */
export async function playing() {
  const list = (await all()).filter((m) => m.status === "playing");
  return list.sort((a, b) => b.updated - a.updated)[0] || null;
}

/** Finished matches not uploaded yet. */
export async function pending() {
  return (await all()).filter((m) => m.status === "finished");
}
