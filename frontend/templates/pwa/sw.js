{% load static %}// Call Break's service worker: the site stays online-first (every page and API call goes to the network);
// when the network is gone a page request gets the offline page, kept in the cache with what it needs.
// It also shows the site's Web Push notifications (below) and opens their match when clicked.
const CACHE = "callbreak-offline-{{ version|default:'1' }}";
const OFFLINE_URL = "/offline/";
const PRECACHE = [
  OFFLINE_URL,
  "{% static 'css/site.css' %}",
  "{% static 'img/favicon.svg' %}",
  "{% static 'img/icons/icon-192.png' %}",
];

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.addAll(PRECACHE.map((url) => new Request(url, { cache: "reload" }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("callbreak-") && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  if (req.method !== "GET") return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  if (req.mode === "navigate") {
    event.respondWith(fetch(req).catch(() => caches.match(OFFLINE_URL)));
    return;
  }
  // the offline page's own files, when the network is gone
  if (PRECACHE.includes(url.pathname)) {
    event.respondWith(fetch(req).catch(() => caches.match(url.pathname)));
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
