// Sheets (the Bomb's "Who put down a 0?") and the full-screen QR code: <dialog>s opened and closed in place, kept
// open across the live updates that would otherwise close them under a finger.
(function () {
  "use strict";
  var referee = window.referee;

  // Buttons with data-opens / data-closes drive the <dialog> they name. Without JavaScript the Bomb posts and its
  // answer is the page with the sheet open (referee/web/pages/table.py), and the sheet's Cancel is a link.
  document.addEventListener("click", function (event) {
    var opener = event.target.closest("[data-opens]");
    if (opener) {
      var dialog = document.getElementById(opener.getAttribute("data-opens"));
      if (dialog && typeof dialog.showModal === "function") {
        event.preventDefault();
        if (dialog.open) dialog.close();
        dialog.showModal();
      }
      return;
    }
    var closer = event.target.closest("[data-closes]");
    if (closer) {
      var target = document.getElementById(closer.getAttribute("data-closes"));
      if (target) { event.preventDefault(); target.close(); }
    }
  });

  // A live update replaced the join panel out of band (a phone joined, a new link): if its full-screen QR code
  // was open (the host showing it around the table), the new one opens again. Not hx-preserve: the new panel may
  // carry a new link, and so a new QR code.
  var qrWasOpen = false;
  document.addEventListener("htmx:oobBeforeSwap", function () {
    var dialog = document.getElementById("qr-full");
    qrWasOpen = !!(dialog && dialog.open);
  });
  document.addEventListener("htmx:oobAfterSwap", function () {
    var dialog = document.getElementById("qr-full");
    if (qrWasOpen && dialog && !dialog.open && typeof dialog.showModal === "function") dialog.showModal();
    qrWasOpen = false;
  });

  // A sheet open on the board is not swapped away under the player's ticks by a live refresh (another phone
  // joining, or a card): the refresh waits until the sheet closes. A card entered meanwhile makes the sheet's post
  // stale, and the table then says so.
  // And a sheet's own form, sent through htmx, closes the sheet before the board it belongs to is swapped.
  var refreshHeldBack = false;
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (event.target.id === "refresh" && document.querySelector("#board dialog[open]")) {
      event.preventDefault();
      refreshHeldBack = true;
      return;
    }
    var dialog = event.target.closest && event.target.closest("dialog");
    if (dialog && dialog.open) dialog.close();
  });
  document.addEventListener("close", function (event) {
    if (!refreshHeldBack || !event.target.closest || !event.target.closest("#board")) return;
    refreshHeldBack = false;
    referee.refreshBoard();
  }, true);
})();
