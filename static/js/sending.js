// A slow answer is seen: "Sending Ann's 5…". On a weak Wi-Fi a tap's answer can take seconds, and a fading form
// alone looks frozen. After a moment the board says which card is on its way; a second tap meanwhile is told to
// wait for it (onetap.js sees that tap). Gone once the answer is in, whatever it is.
(function () {
  "use strict";
  var referee = window.referee;
  var SENDING_AFTER_MS = 700;
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
    if (sendingTimer) window.clearTimeout(sendingTimer);
    sendingTimer = window.setTimeout(function () { sendingTimer = null; referee.saySending(false); }, SENDING_AFTER_MS);
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (!referee.isPost(event.detail)) return;
    if (sendingTimer) { window.clearTimeout(sendingTimer); sendingTimer = null; }
    var note = document.querySelector("#banner .sending");
    if (note) note.remove();
  });
})();
