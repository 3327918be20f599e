{% load static %}// Call Break's service worker: the site stays online-first (every page and API call goes to the network);
// when the network is gone a page request gets the offline page, or the offline table (/play-offline/) with
// what it needs: the table's files (fetched from the network first, kept for when it is gone) and the engine
// under Pyodide (bin/build-offline; kept as they are, in a cache named by their version, once the home page
// or the offline table asked for them: "cache-engine" below). Lists from games/offline/pages.py.
// It also shows the site's Web Push notifications (below) and opens their match when clicked.
const CACHE = "callbreak-offline-1";
const ENGINE_CACHE = "callbreak-engine-{{ version }}";
const OFFLINE_URL = "/offline/";
const OFFLINE_TABLE = "/play-offline/";
const PRECACHE = [
  OFFLINE_URL,
  "{% static 'css/site.css' %}",
  "{% static 'img/favicon.svg' %}",
  "{% static 'img/icons/icon-192.png' %}",
];
const SHELL = {{ shell|safe }};
const ENGINE = {{ engine|safe }};
const SHELL_SET = new Set([...PRECACHE, ...SHELL]);
const ENGINE_SET = new Set(ENGINE);

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.addAll(PRECACHE.map((url) => new Request(url, { cache: "reload" }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  // callbreak-snapshot: the offline engine's memory snapshot, kept by its worker (js/offline/worker.js)
  const keep = new Set([CACHE, ENGINE_CACHE, "callbreak-snapshot"]);
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("callbreak-") && !keep.has(k)).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

// Everything offline play needs, into the caches (the engine's files only once per version); answers the
// asking page with {type: "engine-cached", ok, bytes, kept} (kept: it was all here already, from a visit before).
let caching = null;
async function cacheEngine() {
  const shell = await caches.open(CACHE);
  await Promise.all([...SHELL].map((url) => fetch(url, { cache: "no-cache" })
    .then((res) => (res.ok ? shell.put(url, res) : null)).catch(() => null)));
  const engine = await caches.open(ENGINE_CACHE);
  let bytes = 0;
  let fetched = 0;
  for (const url of ENGINE) {
    let res = await engine.match(url);
    if (!res) {
      fetched += 1;
      res = await fetch(url);
      if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
      await engine.put(url, res.clone());
    }
    bytes += (await res.blob()).size;
  }
  return { bytes, kept: fetched === 0 };
}

self.addEventListener("message", (event) => {
  const msg = event.data || {};
  if (msg.type !== "cache-engine") return;
  caching ||= cacheEngine().finally(() => { caching = null; });
  const reply = (answer) => event.source && event.source.postMessage({ type: "engine-cached", ...answer });
  event.waitUntil(caching.then((got) => reply({ ok: ENGINE.length > 0, ...got }), (e) => reply({ ok: false, error: String(e) })));
});

async function networkFirst(req, key) {
  try {
    const res = await fetch(req);
    if (res.ok) {
      const copy = res.clone();
      caches.open(CACHE).then((cache) => cache.put(key, copy)).catch(() => {});
    }
    return res;
  } catch (e) {
    const hit = await caches.match(key);
    if (hit) return hit;
    throw e;
  }
}

self.addEventListener("fetch", (event) => {
  const req = event.request;
  if (req.method !== "GET") return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  if (ENGINE_SET.has(url.pathname)) {
    event.respondWith(caches.open(ENGINE_CACHE).then((cache) => cache.match(url.pathname).then((hit) => hit || fetch(req))));
    return;
  }
  if (req.mode === "navigate") {
    if (url.pathname === OFFLINE_TABLE) {
      event.respondWith(networkFirst(req, OFFLINE_TABLE).catch(() => caches.match(OFFLINE_URL)));
      return;
    }
    event.respondWith(fetch(req).catch(() => caches.match(OFFLINE_URL)));
    return;
  }
  // the offline page's and the offline table's files: the network first, the cache when it is gone
  if (SHELL_SET.has(url.pathname)) {
    event.respondWith(networkFirst(req, url.pathname));
  }
});

// ---- Web Push (games/push): {type, match_id, title, body, url}, never a card -------------------------------
// One notification per match (its tag): a newer push replaces the older one and rings again (renotify).
self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data ? event.data.text() : "" };
  }
  const tag = data.match_id ? `match-${data.match_id}` : "callbreak";
  event.waitUntil(
    self.registration.showNotification(data.title || "Call Break", {
      body: data.body || "",
      tag,
      renotify: true,
      icon: "{% static 'img/icons/icon-192.png' %}",
      badge: "{% static 'img/icons/icon-192.png' %}",
      timestamp: Date.now(),
      data: { url: data.url || "/", match_id: data.match_id || null, type: data.type || "" },
    }),
  );
});

// A click focuses an open tab of that page (the match), or opens it; only pages of this site.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const wanted = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  const url = wanted.origin === self.location.origin ? wanted : new URL("/", self.location.origin);
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((w) => new URL(w.url).pathname === url.pathname);
      if (open) return open.focus();
      return self.clients.openWindow(url.href);
    }),
  );
});
