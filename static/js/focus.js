// A keyboard keeps its place across a board swap.
//
// A board changed in place (static/js/morph.js) keeps the focused control itself. A board swapped whole (an answer
// morph.js leaves to htmx): htmx puts focus back on the element with the same id (hx-swap's "focus-scroll" notes):
// the pad's cards, Can't play, Undo, Redo and each player's Fix carry ids for that (templates/_board.html,
// referee/web/pages/markup.py). Where that element is now disabled, hidden or gone, or the focused control had no id
// (a hand fix's field, the Bomb sheet's Confirm), focus would fall to <body> and the next Tab would start from the
// top of the page: it goes to the nearest equivalent instead.
(function () {
  "use strict";
  var referee = window.referee;
  var PARTNER = { undo: "redo", redo: "undo" };
  var focusBefore = null;

  function focusable(element) {
    return element && !element.disabled && element.getClientRects().length ? element : null;
  }

  function nearestControl(lost) {
    // A saved hand fix: that player's "Fix" (the new board's is closed, so its field is out of reach).
    var details = lost.closest("details");
    var summary = details && details.querySelector("summary");
    var found = summary && summary.id && focusable(document.getElementById(summary.id));
    // Undo with nothing left to undo: Redo (and the other way round).
    if (!found && PARTNER[lost.id]) found = focusable(document.getElementById(PARTNER[lost.id]));
    // The game is over (the card that won it is gone with the pad): the rematch, what the table does next, which
    // comes after Undo in the page.
    if (!found) found = focusable(document.getElementById("rematch-same"));
    // A card that cannot be played now (or any other lost control): the pad's first enabled button, a card while the
    // game goes on, Undo once it is over without a rematch on this phone.
    var pad = document.getElementById("pad");
    var buttons = pad ? pad.querySelectorAll("button") : [];
    for (var i = 0; !found && i < buttons.length; i++) found = focusable(buttons[i]);
    return found;
  }

  document.addEventListener("htmx:beforeSwap", function () {
    var board = referee.board();
    var active = document.activeElement;
    focusBefore = board && active && board.contains(active) && active.closest("form, details") ? active : null;
  });
  // After htmx's own focus restoring (it runs before this event).
  document.addEventListener("htmx:afterSwap", function () {
    var lost = focusBefore;
    focusBefore = null;
    // A board changed in place (morph.js) keeps the control itself: lost only if it is now disabled or hidden (in
    // a closed <details>: a saved hand fix's field still has its boxes there).
    var kept = lost && document.body.contains(lost) && focusable(lost);
    if (!lost || (kept && !lost.closest("details:not([open]) > :not(summary)"))) return;
    var active = document.activeElement;
    if (active && active !== document.body && active !== lost) return;
    var next = nearestControl(lost);
    if (next) next.focus({ preventScroll: true });
  });
})();
