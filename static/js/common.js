// The pages' own script, one file per concern in static/js/, served to phones as one minified file, app.js, in
// the order referee/web/assets.py lists (BUNDLES): one request instead of one per file on a cheap phone. The app works
// without any of it.
//
// The script is loaded with defer (templates/base.html): it runs once the page is parsed, so what a file reads of
// the page at start it reads at once, with no DOMContentLoaded listener.
//
// This file: the little that two or more concerns share, on one namespace (window.referee), so that each other
// file can stay an IIFE of its own: the board, whether an htmx request is a tap (a POST), asking for the board
// again, and the tap this phone sent last (recorded by onetap.js, named by sending.js and notentered.js).
(function () {
  "use strict";
  var referee = window.referee = window.referee || {};

  // The board htmx swaps whole on every tap and live refresh (templates/_board.html); null on other pages.
  referee.board = function () {
    return document.getElementById("board");
  };

  // A tap: every action the board sends is a POST; live refreshes are GETs.
  referee.isPost = function (detail) {
    return !!(detail && detail.requestConfig && detail.requestConfig.verb === "post");
  };

  // Ask for the board again: a phone's board, or the table display (which has no board, only #display).
  referee.refreshBoard = function () {
    var trigger = document.getElementById("refresh") || document.getElementById("display");
    if (trigger && window.htmx) window.htmx.trigger(trigger, "refresh");
  };

  // The tap that is out or was sent last, {player, card, button}, or null once a note about it has been said.
  referee.lastTap = null;

  // How a note names that tap: "Ann's 5", "Bomb", or "that" when there is none.
  referee.tapWords = function () {
    var tap = referee.lastTap;
    if (!tap) return "that";
    return tap.player ? tap.player + "'s " + tap.card : tap.card;
  };
})();
