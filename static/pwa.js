// Installing on a phone: register the service worker (it needs a secure page: HTTPS, or localhost).
(function () {
  "use strict";
  var script = document.currentScript;
  var url = script && script.getAttribute("data-service-worker");
  if (!url || !("serviceWorker" in navigator) || !window.isSecureContext) return;
  window.addEventListener("load", function () {
    navigator.serviceWorker.register(url).catch(function () {
      // Without a service worker the app works as before; only the offline page is missing.
    });
  });
})();
