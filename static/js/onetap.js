// One tap, one card: a tap meant for one pad never lands on the next, and a second tap while one is out is not sent.
//
// A tap is out: the board's requests share one queue (hx-sync="this:drop" in templates/_board.html), which drops a
// second tap, and the form greys once the answer is slow to come (sending.js). Not hx-disabled-elt: a disabled
// button takes no tap at all, and the second tap must be told to wait (sending.js).
//
// When the pad changes under a finger, the new pad rests: it ignores taps for a moment (CSS and the click guard
// below; CSS alone would let a keyboard's Enter through), so that a tap meant for the old pad cannot land on the
// next player. Nobody reads a new pad that fast:
// - the answer to this phone's own tap: 600 ms, a slow double tap (desktop systems' double-click time is 500 ms by
//   default; a double tap 420 ms apart entered a card twice when the rest was 350 ms). Counted from the answer,
//   which may come back fast: 600 leaves the second half's own delays room;
// - another phone's card: 1 s, faded. The finger may already be on its way to the card the other phone just
//   entered: the host entered Bob's 1 and Bob tapped his 1 on his own phone 450-700 ms later, which went in again
//   as Cy's. It holds when the card makes it this phone's turn too: a tap meant for the player before would go in
//   as this player's own card.
// Undo stays open after this phone's own card (mode "card" below): "oops, Undo" comes fast, and ignoring it in
// silence would break "every mistake one tap to undo". Not after its own Undo or Redo: a double tap on Undo must
// not take back the card before too. A stray Undo sent twice anyway is refused as already done.
(function () {
  "use strict";
  var referee = window.referee;
  var SETTLE_OWN_MS = 600;
  var SETTLE_MOVED_MS = 1000;
  var lastPad = null;  // the pad the page came with, then the last one swapped in (set below padKey)
  var settleTimer = null;
  var settleMode = "";

  // Which cards the pad shows: the table's version, which every accepted action moves on.
  function padKey() {
    var board = referee.board();
    return board ? board.getAttribute("data-version") : null;
  }

  function tappedHistory() {
    var tap = referee.lastTap;
    return Boolean(tap && (tap.button === "undo" || tap.button === "redo"));
  }

  // mode: "moved" (another phone's card: faded), "card" (this phone's card: Undo stays open) or "" (its Undo or Redo).
  function settle(board, ms, mode) {
    // One timer for the current board: an earlier swap's timer must not end a later, longer pause early.
    if (settleTimer) window.clearTimeout(settleTimer);
    settleMode = mode;
    board.setAttribute("data-settling", settleMode);
    settleTimer = window.setTimeout(function () {
      settleTimer = null;
      var current = referee.board();
      if (current) current.removeAttribute("data-settling");
    }, ms);
  }

  // On the swap itself, not after settling: htmx wires up the new board's forms only when it settles.
  document.addEventListener("htmx:afterSwap", function (event) {
    var key = padKey();
    var board = referee.board();
    if (!board) return;
    if (key === lastPad) {
      // The same cards, a new board (a phone joined, a request answered): a pause still running goes on.
      if (settleTimer) board.setAttribute("data-settling", settleMode);
      return;
    }
    lastPad = key;
    if (referee.isPost(event.detail)) settle(board, SETTLE_OWN_MS, tappedHistory() ? "" : "card");
    else settle(board, SETTLE_MOVED_MS, "moved");
  });
  lastPad = padKey();

  // In the capture phase, before htmx sees the click and sends the form.
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("#board form button[type=submit]");
    if (!button) return;
    var board = referee.board();
    // The rest is the pad's (its cards, Can't play, Undo, Redo, the Bomb sheet): a player's Fix or the tie-break
    // form is not redrawn under a finger, and a Fix kept open across another phone's card saves at once.
    var undoingOwnCard = button.id === "undo" && settleMode === "card";
    if (board && board.hasAttribute("data-settling") && button.closest("#pad") && !undoingOwnCard) {
      event.preventDefault();
      event.stopImmediatePropagation();
      return;
    }
    // A tap still out: the board's queue drops this one (hx-sync). Say so rather than drop it in silence, and keep
    // lastTap naming the card that is out: a "not entered" note must name that one, not this.
    if (board && board.querySelector("form.htmx-request")) {
      referee.saySending(true);
      return;
    }
    var form = button.form;
    var player = form && form.querySelector("input[name=player]");
    referee.lastTap = {
      player: player ? player.value : "",
      card: button.getAttribute("data-label") || (button.textContent || "").trim(),
      button: button.id
    };
  }, true);
})();
