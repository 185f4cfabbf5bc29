// A tap that never reached the table is said so: offline, turned away (too busy, the database out of reach, sent
// too much), or left without an answer. The note stays on the board until this phone's next tap is answered, and
// says so again in words that still hold once the table has moved on or the phone is back online.
(function () {
  "use strict";
  var referee = window.referee;
  var notEntered = null;

  // A live refresh swaps the banner with the board: the note goes into the new one, or the catch-up that follows
  // "Back online" would wipe it at once when others had played meanwhile. Not hx-preserve: the note exists only on
  // this phone, and the phone's own answer must drop it.
  document.addEventListener("htmx:afterSwap", function (event) {
    if (referee.isPost(event.detail)) { notEntered = null; return; }
    var banner = document.getElementById("banner");
    if (notEntered && banner && !banner.contains(notEntered)) banner.prepend(notEntered);
    if (notEntered) sayMovedOn(notEntered);
  });

  // Back online, or turned away, after the table moved on (others' cards, a new round): "tap it again" could enter
  // the card for whoever plays now, so the note says the table moved and whose turn it is.
  function sayMovedOn(note) {
    var what = note.getAttribute("data-what");
    var board = referee.board();
    if (!what || note.hasAttribute("data-offline-tap") || !board ||
        board.getAttribute("data-version") === note.getAttribute("data-tapped-at")) return;
    var turn = board.querySelector("#status .turn-name");
    var movedOn = turn
      ? referee.said("moved-turn", "The table moved on (%(current)s's turn now): %(tap)s was not entered. Check, then tap again if it still counts.",
        { current: turn.textContent.trim(), tap: what })
      : referee.said("moved", "The table moved on: %(tap)s was not entered. Check, then tap again if it still counts.", { tap: what });
    note.textContent = note.hasAttribute("data-back-online")
      ? referee.said("back-online-moved", "Back online. %(said)s", { said: movedOn }) : movedOn;
    note.removeAttribute("data-what");
  }

  function sayNotEntered(sentence, offlineTap) {
    var banner = document.getElementById("banner");
    if (!banner) return;
    var note = document.createElement("p");
    note.className = "banner error not-entered";
    note.setAttribute("role", "alert");
    note.textContent = sentence;
    if (offlineTap) note.setAttribute("data-offline-tap", offlineTap);
    if (referee.lastTap) note.setAttribute("data-what", referee.tapWords());
    var board = referee.board();
    if (board) note.setAttribute("data-tapped-at", board.getAttribute("data-version") || "");
    var old = banner.querySelector(".not-entered");
    if (old) old.remove();
    banner.prepend(note);
    notEntered = note;
    referee.lastTap = null;
  }

  function reportNotEntered(offline) {
    if (!referee.lastTap) return;
    var what = referee.tapWords();
    if (offline) {
      sayNotEntered(referee.said("offline", "Not entered: this phone is offline, so %(tap)s did not reach the table. Tap again when it is back.",
        { tap: what }), what);
    } else {
      sayNoAnswer();
    }
  }

  function sayNoAnswer() {
    sayNotEntered(referee.said("no-answer", "No answer from the table: %(tap)s may not be in. Check the total, then tap again if needed.",
      { tap: referee.tapWords() }));
    // The total to check is the table's, not the one this phone showed when it tapped. Once htmx has let go of the
    // board's queue (it still holds it while these events run, and would drop the refresh).
    window.setTimeout(referee.refreshBoard, 0);
  }

  // The error page's own sentence (the app's words for a 404 or a 413), if the answer is one.
  function errorPageSentence(xhr) {
    if ((xhr.getResponseHeader("Content-Type") || "").indexOf("text/html") !== 0) return null;
    var page = new DOMParser().parseFromString(xhr.responseText, "text/html");
    var sentence = page.querySelector(".error-page p");
    return sentence ? sentence.textContent.trim() : null;
  }

  // An answer htmx leaves out (429, 503 and other errors; see htmx-config in templates/base.html). The board the app
  // draws for a refusal with such a status (a rematch past the new-table limit) goes in like any refusal. Anything
  // else (the server's front turning a busy phone away in plain text, a proxy's error page) must not replace the
  // board, but a tap must not vanish in silence either: the board says it was not entered and what to do.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var detail = event.detail;
    var xhr = detail && detail.xhr;
    if (!xhr || detail.shouldSwap || xhr.status < 400) return;
    if (/^text\/html/.test(xhr.getResponseHeader("Content-Type") || "") && xhr.responseText.indexOf('id="board"') !== -1) {
      detail.shouldSwap = true;
      detail.isError = false;
      return;
    }
    if (!referee.isPost(detail)) return;
    var tap = { tap: referee.tapWords() };
    var page = (xhr.status < 500 && xhr.status !== 429) || xhr.status === 503 ? errorPageSentence(xhr) : null;
    if (xhr.status === 429) {
      sayNotEntered(referee.said("too-much", "%(tap)s was not entered: this phone sent too much at once. Wait a moment, then tap again.", tap));
    } else if (xhr.status === 503 && page) {
      // The app's own 503 page is the database out of reach (referee/web/health.py), not a busy table.
      sayNotEntered(referee.said("no-database",
        "%(tap)s was not entered: the referee cannot use its database just now. Wait a moment, then tap again.", tap));
    } else if (xhr.status === 503) {
      sayNotEntered(referee.said("too-busy", "%(tap)s was not entered: the table is too busy just now. Wait a moment, then tap again.", tap));
    } else if (page) {
      sayNotEntered(referee.said("refused", "%(tap)s was not entered: %(reason)s", { tap: tap.tap, reason: page }));
    } else {
      sayNoAnswer();
    }
  });
  document.addEventListener("htmx:sendError", function (event) {
    if (referee.isPost(event.detail)) reportNotEntered(!navigator.onLine);
  });
  document.addEventListener("htmx:timeout", function (event) {
    if (referee.isPost(event.detail)) reportNotEntered(false);
  });

  // Back online: an offline tap's alert would still say "this phone is offline" until the next card.
  window.addEventListener("online", function () {
    var notes = document.querySelectorAll("#banner [data-offline-tap]");
    for (var i = 0; i < notes.length; i++) {
      var what = notes[i].getAttribute("data-offline-tap");
      notes[i].removeAttribute("data-offline-tap");
      notes[i].setAttribute("role", "status");
      notes[i].className = "banner quiet not-entered";
      notes[i].textContent = referee.said("back-online", "Back online. %(tap)s was not entered: tap it again if it still counts.", { tap: what });
      notes[i].setAttribute("data-back-online", "");
      sayMovedOn(notes[i]);  // the catch-up may already be on the screen
    }
  });
})();
