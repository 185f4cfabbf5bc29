// Staying in sync with the table: the live stream, "Reconnecting…", catching up on a revision the stream announced,
// polling while the stream is down, and a resync when the phone wakes up or comes back online.
//
// Requests from the board queue on it (hx-sync in templates/_board.html): a tap is never overtaken by a live
// refresh, which gives way while a tap is out. Convergence does not rest on timing: the page keeps the newest
// revision the stream announced (read from the EventSource itself, so a message that arrives while the board is
// being swapped is never lost), and while the board it shows is older it keeps asking for the board again (a request
// that was dropped or answered late is simply asked again). This file alone asks (#refresh's "refresh"): a message
// about a revision the board already shows, as a tap's own change once its answer is in, asks for nothing.
(function () {
  "use strict";
  var referee = window.referee;

  // Streams end on purpose every few minutes and the browser reopens them after the server's "retry: 2000"
  // (referee/web/live.py): "Reconnecting…" only when the stream stays down longer than that.
  var RECONNECTING_AFTER_MS = 3500;
  var POLL_EVERY_MS = 3000;
  var connection = null;
  var pollTimer = null;
  var reconnectTimer = null;
  var catchUpTimer = null;
  var catchUpDelay = 150;
  var streamOk = false;
  var heard = 0;
  var sources = new WeakSet();
  // An answer that sends the browser to another page (HX-Redirect: a rematch's new table) means the page is leaving:
  // a board fetched now would be cut off by the navigation (an error in the console) or navigate a second time.
  var leaving = false;

  function refresh() {
    if (!leaving) referee.refreshBoard();
  }

  function showReconnecting(show) {
    connection = connection || document.getElementById("connection");
    if (connection) connection.hidden = !show;
    // The table display fades its numbers while they may be old (static/app.css).
    document.documentElement.classList.toggle("reconnecting", !!(connection && show));
  }

  function shownRevision() {
    var board = referee.board();
    return board ? Number(board.getAttribute("data-revision")) || 0 : 0;
  }

  function hear(data) {
    try {
      var revision = JSON.parse(data).revision;
      if (revision > heard) heard = revision;
    } catch (ignored) { /* a message without JSON carries no revision */ }
    catchUp();
  }

  // Behind the stream: ask for the board now, and check again shortly (the answer may have been dropped behind a
  // tap, or the board may have moved on meanwhile). Slows down (to once a second at most) only while the board
  // makes no progress at all: a slow but working server is asked again promptly.
  function catchUp() {
    // Only a board knows which revision it shows; the table display refreshes itself on each message.
    var board = referee.board();
    if (leaving || !board) return;
    if (heard <= shownRevision()) {
      catchUpDelay = 150;
      return;
    }
    // A tap is out: its answer brings the board (the stream usually announces the tap's own change first), and
    // htmx:afterRequest below catches up on anything newer. Asked now, the refresh would only be dropped behind the
    // tap (hx-sync), for a cheap phone's work right when the answer comes in.
    if (board.querySelector("form.htmx-request")) return;
    if (catchUpTimer) return;
    var before = shownRevision();
    refresh();
    catchUpTimer = window.setTimeout(function () {
      catchUpTimer = null;
      catchUpDelay = shownRevision() > before ? 150 : Math.min(catchUpDelay * 2, 1000);
      catchUp();
    }, catchUpDelay);
  }

  function startPolling() {
    if (pollTimer) return;
    pollTimer = window.setInterval(refresh, POLL_EVERY_MS);
  }

  function stopPolling() {
    if (pollTimer) { window.clearInterval(pollTimer); pollTimer = null; }
  }

  document.addEventListener("htmx:sseOpen", function (event) {
    var source = event.detail && event.detail.source;
    if (source && !sources.has(source)) {
      sources.add(source);
      source.addEventListener("changed", function (message) { hear(message.data); });
    }
    streamOk = true;
    if (reconnectTimer) { window.clearTimeout(reconnectTimer); reconnectTimer = null; }
    showReconnecting(false);
    stopPolling();
    refresh();  // catch up on anything missed while the stream was down
  });
  document.addEventListener("htmx:sseError", function () {
    streamOk = false;
    // Meanwhile poll cheaply (the extension keeps retrying the stream).
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
    if (xhr && xhr.status > 0 && xhr.getResponseHeader("HX-Redirect")) leaving = true;
    if (leaving) return;
    if (xhr && xhr.status > 0 && (streamOk || pollTimer)) showReconnecting(false);
    // After htmx has swapped this answer in (or left it out): fetch again if the stream heard of newer.
    window.setTimeout(catchUp, 0);
  });

  // Phones sleep and browsers freeze background tabs (iOS drops streams silently): resync on return, and open the
  // stream again if it is down.
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState !== "visible") return;
    refresh();
    var live = document.getElementById("live");
    if (live && window.htmx && !streamOk) window.htmx.process(live);
  });
  window.addEventListener("online", refresh);
  // A page brought back from the browser's back-forward cache shows the board as it was when it was left, and is no
  // longer leaving.
  window.addEventListener("pageshow", function (event) {
    if (!event.persisted) return;
    leaving = false;
    refresh();
  });
})();
