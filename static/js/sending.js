// A slow answer is seen. On a weak Wi-Fi a tap's answer can take seconds:
// - after 100 ms the form fades (data-slow, static/app.css): it takes no other tap while one is out (hx-sync);
// - after 700 ms the board says which card is on its way, "Sending Ann's 5…", as a fading form alone looks frozen;
//   a second tap meanwhile is told to wait for it (onetap.js sees that tap).
// Both are gone once the answer is in, whatever it is. An answer within 100 ms changes nothing before the new board:
// a reply that quick reads as instant, and fading the pad at once cost a cheap phone a frame of its own while the tap
// was out, painted just as the answer came in (docs/performance.md, "The pad fades only for a slow answer").
(function () {
  "use strict";
  var referee = window.referee;
  var FADE_AFTER_MS = 100;
  var SENDING_AFTER_MS = 700;
  var fadeTimer = null;
  var sendingTimer = null;

  // dropped: a second tap came while this one is out, and the board's queue dropped it.
  referee.saySending = function (dropped) {
    var banner = document.getElementById("banner");
    if (!banner || !referee.lastTap) return;
    var note = banner.querySelector(".sending");
    if (!note) {
      note = document.createElement("p");
      note.className = "banner quiet sending";
      note.setAttribute("role", "status");
      banner.prepend(note);
    }
    note.textContent = dropped
      ? referee.said("sending-wait", "Sending %(tap)s… Wait for it before tapping again.", { tap: referee.tapWords() })
      : referee.said("sending", "Sending %(tap)s…", { tap: referee.tapWords() });
  };

  document.addEventListener("htmx:beforeRequest", function (event) {
    if (!referee.isPost(event.detail)) return;
    var form = event.detail.elt;
    if (fadeTimer) window.clearTimeout(fadeTimer);
    fadeTimer = window.setTimeout(function () { fadeTimer = null; form.setAttribute("data-slow", ""); }, FADE_AFTER_MS);
    if (sendingTimer) window.clearTimeout(sendingTimer);
    sendingTimer = window.setTimeout(function () { sendingTimer = null; referee.saySending(false); }, SENDING_AFTER_MS);
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (!referee.isPost(event.detail)) return;
    if (fadeTimer) { window.clearTimeout(fadeTimer); fadeTimer = null; }
    event.detail.elt.removeAttribute("data-slow");
    if (sendingTimer) { window.clearTimeout(sendingTimer); sendingTimer = null; }
    var note = document.querySelector("#banner .sending");
    if (note) note.remove();
  });
})();
