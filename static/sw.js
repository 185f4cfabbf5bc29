// 5 Alive Referee service worker: keeps the app shell and static files for when the Wi-Fi drops, and shows
// our own offline page instead of the browser's error. It never keeps a table's state: pages, the board,
// the live stream and the API always come from the server (a stale table would mislead the players).
"use strict";

var CACHE = "referee-__VERSION__";
var SHELL = ["__SHELL__"];
var OFFLINE = "__OFFLINE__";

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(CACHE).then(function (cache) { return cache.addAll(SHELL); }).then(function () {
      return self.skipWaiting();
    })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) { return name !== CACHE; }).map(function (name) {
        return caches.delete(name);
      }));
    }).then(function () { return self.clients.claim(); })
  );
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    // A page: always the server's, fresh; only when the server cannot be reached, the offline page.
    event.respondWith(fetch(request).catch(function () { return caches.match(OFFLINE); }));
    return;
  }
  if (url.pathname.indexOf("/static/") !== -1) {
    // Static files carry their content's hash in the URL (?v=…), so a kept copy is never out of date.
    event.respondWith(
      caches.open(CACHE).then(function (cache) {
        return cache.match(request).then(function (kept) {
          if (kept) return kept;
          return fetch(request).then(function (response) {
            if (response.ok) cache.put(request, response.clone());
            return response;
          });
        });
      })
    );
  }
  // Everything else (the board, the live stream, the API, health checks) goes to the network untouched.
});
