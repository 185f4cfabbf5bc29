// A hand Fix being typed survives a live refresh.
//
// Another phone's card redraws the board, and with it every player's Fix: an open Fix would close and the typed
// number be lost, with nothing said. The new board's Fix for the same player opens again with what was typed, the
// field keeping the focus. Not hx-preserve: the new Fix's form carries the table's new version, so Save still
// counts, where the kept old form would be refused as stale. The phone's own answer is left alone: a saved Fix
// closes, as it should.
(function () {
  "use strict";
  var referee = window.referee;
  var openFix = null;

  document.addEventListener("htmx:beforeSwap", function (event) {
    openFix = null;
    if (referee.isPost(event.detail)) return;
    var details = document.querySelector("#board details.fix-hand[open]");
    var summary = details && details.querySelector("summary[id]");
    var field = details && details.querySelector("input[name=cards]");
    if (summary && field) openFix = { id: summary.id, value: field.value, focused: document.activeElement === field };
  });
  document.addEventListener("htmx:afterSwap", function () {
    var kept = openFix;
    openFix = null;
    var summary = kept && document.getElementById(kept.id);
    var details = summary && summary.closest("details.fix-hand");
    var field = details && details.querySelector("input[name=cards]");
    if (!field) return;  // nothing was open, or that player's Fix is gone (out of the game, game over)
    details.open = true;
    field.value = kept.value;
    if (kept.focused) field.focus({ preventScroll: true });
  });
})();
