// The table's service worker (served at /table-worker.js, its scope /games/): it keeps the table's entry
// page and the assets it uses on the phone, so the page opens and reloads with no network. The page is
// asked of the server first (a copy kept each time it answers); with no answer, the copy kept is shown,
// marked as such (<html data-kept-copy>). Assets are served from what is kept and refreshed behind.
// It sends nothing: the page's own outbox (outbox.js) sends the hands recorded meanwhile.
"use strict";
const VERSION = "{{ version }}";
const ASSETS = [{% for url in assets %}"{{ url|escapejs }}"{% if not forloop.last %}, {% endif %}{% endfor %}];
const ASSET_CACHE = "ginscore-table-assets-" + VERSION;
const PAGE_CACHE = "ginscore-table-pages";
const ENTRY_PAGE = /^\/games\/[0-9]+\/enter\/$/;
const PATIENCE = 6000;  // a network that does not answer (a hall's Wi-Fi with no line out) is no network

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(ASSET_CACHE).then(function (cache) { return cache.addAll(ASSETS); })
    .then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf("ginscore-table-assets-") === 0 && name !== ASSET_CACHE;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

function withPatience(request) {
  const controller = new AbortController();
  const timer = setTimeout(function () { controller.abort(); }, PATIENCE);
  return fetch(request, { signal: controller.signal }).finally(function () { clearTimeout(timer); });
}

async function keptPage(key) {
  const cache = await caches.open(PAGE_CACHE);
  const copy = await cache.match(key, { ignoreVary: true });
  if (!copy) {
    return new Response("<!doctype html><meta charset=utf-8><meta name=viewport content=\"width=device-width\">" +
      "<title>No network</title><p>No network, and this phone has no copy of this table's page yet: " +
      "open the table's link again once the network is back.</p>",
      { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
  }
  const when = copy.headers.get("Date") || "";
  const text = (await copy.text()).replace("<html", "<html data-kept-copy=\"" + when.replace(/"/g, "") + "\"");
  return new Response(text, { status: 200, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

async function entryPage(request) {
  const url = new URL(request.url);
  const key = url.origin + url.pathname;
  try {
    const response = await withPatience(request);
    const cache = await caches.open(PAGE_CACHE);
    if (response.ok && !response.redirected) {
      await cache.put(key, response.clone());
    } else if (response.type === "opaqueredirect" || response.status === 403 || response.status === 404) {
      await cache.delete(key);  // signed out, or the page is no longer this phone's: its copy goes too
    }
    return response;
  } catch (error) {
    return keptPage(key);
  }
}

async function asset(request) {
  const cache = await caches.open(ASSET_CACHE);
  const copy = await cache.match(request, { ignoreSearch: true });
  const fresh = fetch(request).then(function (response) {
    if (response.ok) cache.put(request, response.clone());
    return response;
  });
  if (copy) {
    fresh.catch(function () {});
    return copy;
  }
  return fresh;
}

self.addEventListener("fetch", function (event) {
  const request = event.request;
  if (request.method !== "GET") return;  // hands are sent by the page's outbox, never here
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && ENTRY_PAGE.test(url.pathname)) {
    event.respondWith(entryPage(request));
  } else if (ASSETS.indexOf(url.pathname) !== -1) {
    event.respondWith(asset(request));
  }
});
