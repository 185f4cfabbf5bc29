// Installing on a phone: register the service worker (it needs a secure page: HTTPS, or localhost). Its URL is the
// page's script tag's data-service-worker (templates/base.html), read while the script runs, as only then is
// document.currentScript that tag.
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
