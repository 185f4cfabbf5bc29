// 5 Alive Referee: small progressive enhancements on top of htmx. The app works without this file.
(function () {
  "use strict";

  // Sheets and the full-screen QR code: buttons with data-opens / data-closes drive <dialog>s.
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

  // The Bomb sheet says beside Confirm who loses a life, again at each tick: with a phone's text made large the
  // names scroll out of sight while Confirm stays in view (play test 10a). The same words as templates/_pad.html.
  function joinNames(names) {
    return names.length < 2 ? names.join("") : names.slice(0, -1).join(", ") + " and " + names[names.length - 1];
  }
  document.addEventListener("change", function (event) {
    var sheet = event.target.closest("dialog");
    var summary = sheet && sheet.querySelector(".sheet-summary");
    if (!summary) return;
    var losing = [];
    sheet.querySelectorAll("input[name=zeros]").forEach(function (box) { if (!box.checked) losing.push(box.value); });
    summary.textContent = losing.length ? "Losing a life: " + joinNames(losing) + "." : "Nobody loses a life.";
  });

  // A live update replaced the join panel (a phone joined, a new link): if its full-screen QR code was
  // open (the host showing it around the table), open the new one again.
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

  // A sheet open on the board (the Bomb's "Who put down a 0?") is not swapped away under the player's ticks by a
  // live refresh (another phone joining, or a card): the refresh waits until the sheet closes. A card entered
  // meanwhile makes the sheet's post stale, and the table then says so.
  var refreshHeldBack = false;
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (event.target.id !== "refresh" || !document.querySelector("#board dialog[open]")) return;
    event.preventDefault();
    refreshHeldBack = true;
  });
  document.addEventListener("close", function (event) {
    if (!refreshHeldBack || !event.target.closest || !event.target.closest("#board")) return;
    refreshHeldBack = false;
    refreshBoard();
  }, true);

  // A dialog's form was submitted through htmx: close the dialog before the board is swapped.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var dialog = event.target.closest && event.target.closest("dialog");
    if (dialog && dialog.open) dialog.close();
  });

  // --- Staying in sync: live stream, "Reconnecting…", resync on wake, polling fallback ---
  // Requests from the board queue on it (hx-sync in _board.html): a tap is never overtaken by a live
  // refresh, which gives way while a tap is out. Convergence does not rest on timing: the page keeps the
  // newest revision the stream announced (read from the EventSource itself, so a message that arrives
  // while the board is being swapped is never lost), and while the board it shows is older it keeps asking
  // for the board again (a request that was dropped or answered late is simply asked again).
  var RECONNECTING_AFTER_MS = 3500;
  var connection = null;
  var pollTimer = null;
  var reconnectTimer = null;
  var catchUpTimer = null;
  var catchUpDelay = 150;
  var streamOk = false;
  var heard = 0;
  var sources = typeof WeakSet === "function" ? new WeakSet() : null;

  function showReconnecting(show) {
    connection = connection || document.getElementById("connection");
    if (connection) connection.hidden = !show;
    // The table display fades its numbers while they may be old (static/app.css).
    document.documentElement.classList.toggle("reconnecting", !!(connection && show));
  }

  function shownRevision() {
    var board = document.getElementById("board");
    return board ? Number(board.getAttribute("data-revision")) || 0 : 0;
  }

  function refreshBoard() {
    // A phone's board, or the table display (which has no board).
    var trigger = document.getElementById("refresh") || document.getElementById("display");
    if (trigger && window.htmx) window.htmx.trigger(trigger, "refresh");
  }

  function hear(data) {
    try {
      var revision = JSON.parse(data).revision;
      if (revision > heard) heard = revision;
    } catch (ignored) { /* a message without JSON carries no revision */ }
    catchUp();
  }

  // Behind the stream: ask for the board now, and check again shortly (the answer may have been dropped
  // behind a tap, or the board may have moved on meanwhile). Slows down (to once a second at most) only
  // while the board makes no progress at all: a slow but working server is asked again promptly.
  function catchUp() {
    // Only a board knows which revision it shows; the table display refreshes itself on each message.
    if (!document.getElementById("board")) return;
    if (heard <= shownRevision()) {
      catchUpDelay = 150;
      return;
    }
    if (catchUpTimer) return;
    var before = shownRevision();
    refreshBoard();
    catchUpTimer = window.setTimeout(function () {
      catchUpTimer = null;
      catchUpDelay = shownRevision() > before ? 150 : Math.min(catchUpDelay * 2, 1000);
      catchUp();
    }, catchUpDelay);
  }

  function startPolling() {
    if (pollTimer) return;
    pollTimer = window.setInterval(refreshBoard, 3000);
  }

  function stopPolling() {
    if (pollTimer) { window.clearInterval(pollTimer); pollTimer = null; }
  }

  document.addEventListener("htmx:sseOpen", function (event) {
    var source = event.detail && event.detail.source;
    if (source && sources && !sources.has(source)) {
      sources.add(source);
      source.addEventListener("changed", function (message) { hear(message.data); });
    }
    streamOk = true;
    if (reconnectTimer) { window.clearTimeout(reconnectTimer); reconnectTimer = null; }
    showReconnecting(false);
    stopPolling();
    refreshBoard();  // catch up on anything missed while the stream was down
  });
  // Browsers without WeakSet: the extension's own message event still carries the revision.
  document.addEventListener("htmx:sseMessage", function (event) { if (!sources) hear(event.detail.data); });
  document.addEventListener("htmx:sseError", function () {
    streamOk = false;
    // Streams end on purpose every few minutes and the browser reopens them after the server's "retry: 2000"
    // (referee/web/live.py): only say "Reconnecting…" when the stream stays down longer than that, and meanwhile
    // poll cheaply (the extension keeps retrying).
    if (!reconnectTimer) {
      reconnectTimer = window.setTimeout(function () {
        reconnectTimer = null;
        if (!streamOk) { showReconnecting(true); startPolling(); }
      }, RECONNECTING_AFTER_MS);
    }
  });
  document.addEventListener("htmx:sendError", function () { showReconnecting(true); });
  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail && event.detail.xhr;
    if (xhr && xhr.status > 0 && (streamOk || pollTimer)) showReconnecting(false);
    // After htmx has swapped this answer in (or left it out): fetch again if the stream heard of newer.
    window.setTimeout(catchUp, 0);
  });

  // --- One tap, one card ---
  // A tap is out: the board's requests share one queue (hx-sync) and CSS greys the form (htmx-request).
  // When the pad changes under a finger, the new pad ignores taps for a moment (CSS and a click guard), so
  // that a tap meant for the old pad cannot land on the next player; nobody reads a new pad that fast:
  // - the answer to this phone's own tap: 600 ms, a slow double tap (desktop systems' double-click time is
  //   500 ms by default; play test 4 saw a double tap 420 ms apart enter a card twice at 350 ms). Counted
  //   from the answer, which may come back fast: 600 leaves the second half's own delays room;
  // - another phone's card: 1 s, faded. The finger may already be on its way to the card the other phone
  //   just entered: the host entered Bob's 1 and Bob tapped his 1 on his own phone 450-700 ms later, which
  //   went in again as Cy's (play test 4). It holds when the card makes it this phone's turn too: a tap meant
  //   for the player before would go in as this player's own card.
  // Undo stays open after this phone's own card ("card" below): "oops, Undo" comes fast, and ignoring it in
  // silence broke "every mistake one tap to undo" (play test 8a). Not after its own Undo or Redo: a double tap on
  // Undo must not take back the card before too. A stray Undo sent twice anyway is refused as already done.
  var SETTLE_OWN_MS = 600;
  var SETTLE_MOVED_MS = 1000;
  var lastPad = null;
  var lastTap = null;
  var settleTimer = null;
  var settleMode = "";

  function padKey() {
    var board = document.getElementById("board");
    return board ? board.getAttribute("data-version") : null;
  }

  function tappedHistory() {
    return Boolean(lastTap && (lastTap.button === "undo" || lastTap.button === "redo"));
  }

  // mode: "moved" (another phone's card: faded), "card" (this phone's card: Undo stays open) or "" (its Undo or Redo).
  function settle(board, ms, mode) {
    // One timer for the current board: an earlier swap's timer must not end a later, longer pause early.
    if (settleTimer) window.clearTimeout(settleTimer);
    settleMode = mode;
    board.setAttribute("data-settling", settleMode);
    settleTimer = window.setTimeout(function () {
      settleTimer = null;
      var current = document.getElementById("board");
      if (current) current.removeAttribute("data-settling");
    }, ms);
  }

  // On the swap itself, not after settling: htmx wires up the new board's forms only when it settles.
  document.addEventListener("htmx:afterSwap", function (event) {
    var key = padKey();
    var board = document.getElementById("board");
    if (!board) return;
    if (key === lastPad) {
      // The same cards, a new board (a phone joined, a request answered): a pause still running goes on.
      if (settleTimer) board.setAttribute("data-settling", settleMode);
      return;
    }
    lastPad = key;
    if (isPost(event.detail)) settle(board, SETTLE_OWN_MS, tappedHistory() ? "" : "card");
    else settle(board, SETTLE_MOVED_MS, "moved");
  });
  document.addEventListener("DOMContentLoaded", function () { lastPad = padKey(); });

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("#board form button[type=submit]");
    if (!button) return;
    var board = document.getElementById("board");
    // The pause is the pad's (its cards, Can't play, Undo, Redo, the Bomb sheet): a player's Fix or the tie-break
    // form is not redrawn under a finger, and a Fix kept open across another phone's card saves at once.
    var undoingOwnCard = button.id === "undo" && settleMode === "card";
    if (board && board.hasAttribute("data-settling") && button.closest("#pad") && !undoingOwnCard) {
      event.preventDefault();
      event.stopImmediatePropagation();
      return;
    }
    // A tap still out: the board's queue drops this one (hx-sync). Say so rather than drop it in silence, and
    // keep lastTap naming the card that is out: a "not entered" note must name that one, not this.
    if (board && board.querySelector("form.htmx-request")) {
      saySending(true);
      return;
    }
    var form = button.form;
    var player = form && form.querySelector("input[name=player]");
    lastTap = {
      player: player ? player.value : "",
      card: button.getAttribute("data-label") || (button.textContent || "").trim(),
      button: button.id
    };
  }, true);

  // --- A slow answer is seen: "Sending Ann's 5…" ---
  // On a weak Wi-Fi a tap's answer can take seconds, and a fading form alone looks frozen (play test 4). After a
  // moment the board says which card is on its way; a second tap meanwhile is told to wait for it.
  var SENDING_AFTER_MS = 700;
  var sendingTimer = null;

  function saySending(dropped) {
    var banner = document.getElementById("banner");
    if (!banner || !lastTap) return;
    var note = banner.querySelector(".sending");
    if (!note) {
      note = document.createElement("p");
      note.className = "banner quiet sending";
      note.setAttribute("role", "status");
      banner.prepend(note);
    }
    note.textContent = "Sending " + tapWords() + "…" + (dropped ? " Wait for it before tapping again." : "");
  }
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (!isPost(event.detail)) return;
    if (sendingTimer) window.clearTimeout(sendingTimer);
    sendingTimer = window.setTimeout(function () { sendingTimer = null; saySending(false); }, SENDING_AFTER_MS);
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (!isPost(event.detail)) return;
    if (sendingTimer) { window.clearTimeout(sendingTimer); sendingTimer = null; }
    var note = document.querySelector("#banner .sending");
    if (note) note.remove();
  });

  // --- A keyboard keeps its place across a board swap ---
  // htmx itself puts focus back on the element with the same id once the board is swapped (hx-swap's "focus
  // scroll" notes): the pad's cards, Can't play, Undo, Redo and each player's Fix carry ids for that
  // (templates/_pad.html, pages/rendering.py). Where that element is now disabled or gone, or the focused
  // control had no id (a hand fix's field, the Bomb sheet's Confirm), focus would fall to <body> and the next
  // Tab would start from the top of the page: it goes to the nearest equivalent instead.
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
    // The game is over (the card that won it is gone with the pad): the rematch, what the table does next
    // (play test 5: focus fell on Undo, after the rematch in the page).
    if (!found) found = focusable(document.getElementById("rematch-same"));
    // A card that cannot be played now (or any other lost control): the pad's first enabled button, a card
    // while the game goes on, Undo once it is over without a rematch on this phone.
    var pad = document.getElementById("pad");
    var buttons = pad ? pad.querySelectorAll("button") : [];
    for (var i = 0; !found && i < buttons.length; i++) found = focusable(buttons[i]);
    return found;
  }

  document.addEventListener("htmx:beforeSwap", function () {
    var board = document.getElementById("board");
    var active = document.activeElement;
    focusBefore = board && active && board.contains(active) && active.closest("form, details") ? active : null;
  });
  // After htmx's own focus restoring (it runs before this event).
  document.addEventListener("htmx:afterSwap", function () {
    var lost = focusBefore;
    focusBefore = null;
    if (!lost || document.body.contains(lost)) return;
    if (document.activeElement && document.activeElement !== document.body) return;
    var next = nearestControl(lost);
    if (next) next.focus({ preventScroll: true });
  });

  // --- Enter in the rematch form's "New players" box ---
  // The phone keyboard's Go key sends the form from the text box, and a refusal then came back with the focus left
  // in the box and its sentence, beside the button, a screen or more below (play test 12a). Sent from the
  // button instead, the answer puts the focus back on the button with the sentence just above it, on screen.
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" || !event.target.matches || !event.target.matches("form.rematch-form input[type=text]")) return;
    var button = event.target.form.querySelector("#rematch-go");
    if (!button) return;
    event.preventDefault();
    button.focus();
    button.click();
  });

  // --- A hand Fix being typed survives a live refresh ---
  // Another phone's card redraws the board, and with it every player's Fix: the host's open Fix closed and the
  // typed number was lost, with nothing said (play test 5). The new board's Fix for the same player opens again
  // with what was typed (its form carries the new version, so Save still counts), the field keeping the focus.
  // The phone's own answer is left alone: a saved Fix closes, as it should.
  var openFix = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    openFix = null;
    if (isPost(event.detail)) return;
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

  // --- What just happened, said once to a screen reader ---
  // The board's "Just now" and "Your turn!" are redrawn with every swap, and a region inserted already filled in
  // is mostly not announced: a blind player heard nothing of other phones' cards (play test 5). The same words go
  // into #announce (templates/table.html), which stays, once per change (not on a redraw with the same news).
  function news() {
    var board = document.getElementById("board");
    if (!board) return "";
    var line = board.querySelector("#strip .just-happened");
    if (line) {
      // The news without its "Why?" link: read out, a bare "Why?" at the end sounds like a question (play test 13a).
      line = line.cloneNode(true);
      line.querySelectorAll(".why").forEach(function (link) { link.remove(); });
    }
    var text = line ? line.textContent.replace(/\s+/g, " ").trim() : "";
    return board.hasAttribute("data-your-turn") ? (text ? text + " " : "") + "Your turn!" : text;
  }
  var announced = null;
  document.addEventListener("DOMContentLoaded", function () { announced = news(); });
  document.addEventListener("htmx:afterSwap", function () {
    var region = document.getElementById("announce");
    var text = news();
    if (!region || !text || text === announced) return;
    announced = text;
    region.textContent = text;
  });

  // --- A refusal is seen ---
  // A refused tap answers with the board and the reason in its banner, at the top. A form far down the page
  // (a player's hand fix) would leave that sentence off-screen: the player saw the form close and thought it
  // worked. When no alert on the new board is in view, the first refusal is scrolled into view.
  function inView(element) {
    var box = element.getBoundingClientRect();
    return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight;
  }
  document.addEventListener("htmx:afterSwap", function () {
    var board = document.getElementById("board");
    if (!board) return;
    var alerts = board.querySelectorAll("[role=alert]");
    for (var i = 0; i < alerts.length; i++) if (inView(alerts[i])) return;
    var refusal = board.querySelector(".banner.error");
    if (refusal) refusal.scrollIntoView({ block: "center" });
  });

  // A tap that never reached the table is said so, on the board, until this phone's next tap is answered. A live
  // refresh swaps the banner with the board: the note goes into the new one (play test 4 saw "Back online. …
  // was not entered" wiped at once by the catch-up when others had played meanwhile).
  var notEntered = null;
  document.addEventListener("htmx:afterSwap", function (event) {
    if (isPost(event.detail)) { notEntered = null; return; }
    var banner = document.getElementById("banner");
    if (notEntered && banner && !banner.contains(notEntered)) banner.prepend(notEntered);
    if (notEntered) sayMovedOn(notEntered);
  });
  // Back online after the table moved on (others' cards, a new round): "tap it again" could enter the card for
  // whoever plays now, so the note says the table moved and whose turn it is (play test 8a).
  // The same for a tap turned away (too busy, the database out of reach) while others' cards went in (play test 9c).
  function sayMovedOn(note) {
    var what = note.getAttribute("data-what");
    var board = document.getElementById("board");
    if (!what || note.hasAttribute("data-offline-tap") || !board ||
        board.getAttribute("data-version") === note.getAttribute("data-tapped-at")) return;
    var turn = board.querySelector("#status .turn-name");
    var now = turn ? " (" + turn.textContent.trim() + "'s turn now)" : "";
    note.textContent = (note.hasAttribute("data-back-online") ? "Back online. " : "") + "The table moved on" + now +
      ": " + what + " was not entered. Check, then tap again if it still counts.";
    note.removeAttribute("data-what");
  }
  function tapWords() {
    if (!lastTap) return "that";
    return lastTap.player ? lastTap.player + "'s " + lastTap.card : lastTap.card;
  }
  function sayNotEntered(sentence, offlineTap) {
    var banner = document.getElementById("banner");
    if (!banner) return;
    var note = document.createElement("p");
    note.className = "banner error not-entered";
    note.setAttribute("role", "alert");
    note.textContent = sentence;
    if (offlineTap) note.setAttribute("data-offline-tap", offlineTap);
    if (lastTap) note.setAttribute("data-what", tapWords());
    var board = document.getElementById("board");
    if (board) note.setAttribute("data-tapped-at", board.getAttribute("data-version") || "");
    var old = banner.querySelector(".not-entered");
    if (old) old.remove();
    banner.prepend(note);
    notEntered = note;
    lastTap = null;
  }
  function reportNotEntered(offline) {
    if (!lastTap) return;
    var what = tapWords();
    if (offline) {
      sayNotEntered("Not entered: this phone is offline, so " + what + " did not reach the table. Tap again when it is back.", what);
    } else {
      sayNoAnswer();
    }
  }
  function sayNoAnswer() {
    sayNotEntered("No answer from the table: " + tapWords() + " may not be in. Check the total, then tap again if needed.");
    // The total to check is the table's, not the one this phone showed when it tapped. Once htmx has let go of
    // the board's queue (it still holds it while these events run, and would drop the refresh).
    window.setTimeout(refreshBoard, 0);
  }
  function isPost(detail) {
    return !!(detail && detail.requestConfig && detail.requestConfig.verb === "post");
  }
  // The error page's own sentence (the app's words for a 404 or a 413), if the answer is one.
  function errorPageSentence(xhr) {
    if ((xhr.getResponseHeader("Content-Type") || "").indexOf("text/html") !== 0) return null;
    var page = new DOMParser().parseFromString(xhr.responseText, "text/html");
    var sentence = page.querySelector(".error-page p");
    return sentence ? sentence.textContent.trim() : null;
  }
  // An answer htmx leaves out (429, 503 and other errors; see htmx-config in base.html). The board the app draws
  // for a refusal with such a status (a rematch past the new-table limit) goes in like any refusal. Anything
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
    if (!isPost(detail)) return;
    var what = tapWords();
    var What = what.charAt(0).toUpperCase() + what.slice(1);
    var page = (xhr.status < 500 && xhr.status !== 429) || xhr.status === 503 ? errorPageSentence(xhr) : null;
    if (xhr.status === 429) {
      sayNotEntered(What + " was not entered: this phone sent too much at once. Wait a moment, then tap again.");
    } else if (xhr.status === 503 && page) {
      // The app's own 503 page is the database out of reach (health.py), not a busy table (play test 9c).
      sayNotEntered(What + " was not entered: the referee cannot use its database just now. Wait a moment, then tap again.");
    } else if (xhr.status === 503) {
      sayNotEntered(What + " was not entered: the table is too busy just now. Wait a moment, then tap again.");
    } else if (page) {
      sayNotEntered(What + " was not entered: " + page);
    } else {
      sayNoAnswer();
    }
  });
  document.addEventListener("htmx:sendError", function (event) {
    if (isPost(event.detail)) reportNotEntered(!navigator.onLine);
  });
  document.addEventListener("htmx:timeout", function (event) {
    if (isPost(event.detail)) reportNotEntered(false);
  });

  // --- "Your turn": vibrate where the browser allows, and an optional short sound (off unless this phone
  // turned it on; remembered in localStorage) ---
  var SOUND_KEY = "referee-your-turn-sound";
  var wasMyTurn = null;

  function soundOn() {
    try { return window.localStorage.getItem(SOUND_KEY) === "on"; } catch (ignored) { return false; }
  }

  function showSoundSetting() {
    var setting = document.querySelector("[data-sound-setting]");
    var button = setting && setting.querySelector("[data-sound-toggle]");
    if (!button) return;
    setting.hidden = false;
    button.setAttribute("aria-pressed", soundOn() ? "true" : "false");
    button.textContent = "\"Your turn\" sound: " + (soundOn() ? "on" : "off");
  }

  function beep() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    try {
      var context = new Context();
      var tone = context.createOscillator();
      var volume = context.createGain();
      tone.frequency.value = 880;
      volume.gain.value = 0.15;
      tone.connect(volume);
      volume.connect(context.destination);
      tone.start();
      tone.stop(context.currentTime + 0.18);
      tone.onended = function () { context.close(); };
    } catch (ignored) { /* no sound on this phone */ }
  }

  function cueMyTurn() {
    var board = document.getElementById("board");
    var mine = !!(board && board.hasAttribute("data-your-turn"));
    if (mine && wasMyTurn === false) {
      if (navigator.vibrate) { try { navigator.vibrate([120, 60, 120]); } catch (ignored) { /* not allowed */ } }
      if (soundOn()) beep();
    }
    wasMyTurn = mine;
  }

  document.addEventListener("click", function (event) {
    var toggle = event.target.closest && event.target.closest("[data-sound-toggle]");
    if (!toggle) return;
    try { window.localStorage.setItem(SOUND_KEY, soundOn() ? "off" : "on"); } catch (ignored) { /* private mode */ }
    showSoundSetting();
    if (soundOn()) beep();
  });
  document.addEventListener("htmx:afterSwap", cueMyTurn);
  document.addEventListener("DOMContentLoaded", function () { showSoundSetting(); cueMyTurn(); });

  // Phones sleep and browsers freeze background tabs (iOS drops streams silently): resync on return.
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") {
      refreshBoard();
      var live = document.getElementById("live");
      if (live && window.htmx && !streamOk) window.htmx.process(live);
      requestWakeLock();
    }
  });
  // Back online: an offline tap's alert would still say "this phone is offline" until the next card.
  function sayBackOnline() {
    var notes = document.querySelectorAll("#banner [data-offline-tap]");
    for (var i = 0; i < notes.length; i++) {
      var what = notes[i].getAttribute("data-offline-tap");
      notes[i].removeAttribute("data-offline-tap");
      notes[i].setAttribute("role", "status");
      notes[i].className = "banner quiet not-entered";
      notes[i].textContent = "Back online. " + what + " was not entered: tap it again if it still counts.";
      notes[i].setAttribute("data-back-online", "");
      sayMovedOn(notes[i]);  // the catch-up may already be on the screen
    }
  }
  window.addEventListener("online", function () { sayBackOnline(); refreshBoard(); });
  window.addEventListener("pageshow", function (event) { if (event.persisted) refreshBoard(); });

  // --- Keep the screen awake while the table is open (Screen Wake Lock needs HTTPS) ---
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
  document.addEventListener("DOMContentLoaded", requestWakeLock);
})();
