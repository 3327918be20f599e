{% load static %}// Call Break's service worker: the site stays online-first (every page and API call goes to the network);
// when the network is gone a page request gets the offline page, kept in the cache with what it needs.
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
