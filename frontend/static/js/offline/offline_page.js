// The offline page offers the offline table once the service worker keeps the engine (a "callbreak-engine-" cache).
const box = document.querySelector("[data-offline-play]");
if (box && "caches" in window) {
  caches.keys().then((keys) => {
    box.hidden = !keys.some((k) => k.startsWith("callbreak-engine-") && !k.endsWith("-none"));
  }).catch(() => { /* no caches here */ });
}
