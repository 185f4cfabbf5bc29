// Keep the screen awake while the table is open: a phone lying on the table must not go dark between two cards.
// The Screen Wake Lock API needs a secure page (HTTPS, or localhost); over a plain Wi-Fi address the page shows a
// tip instead (#wake-note in templates/table.html). The browser lets go of the lock when the page is hidden, so it
// is asked for again each time the page is shown.
(function () {
  "use strict";
  var wakeLock = null;

  function requestWakeLock() {
    if (!document.getElementById("live")) return;
    if (!("wakeLock" in navigator) || !window.isSecureContext) {
      var note = document.getElementById("wake-note");
      if (note) note.hidden = false;
      return;
    }
    if (wakeLock) return;
    navigator.wakeLock.request("screen").then(function (lock) {
      wakeLock = lock;
      lock.addEventListener("release", function () { wakeLock = null; });
    }).catch(function () { /* refused (battery saver): nothing to do */ });
  }

  requestWakeLock();
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") requestWakeLock();
  });
})();
