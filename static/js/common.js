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

  // A sentence of the page's, in the page's language (templates/table.html writes them on #tap-words), its
  // placeholders filled in from `values`, its first letter a capital; `english` where the page has none.
  referee.said = function (name, english, values) {
    var sentence = filled(words(name) || english, values);
    return sentence.charAt(0).toUpperCase() + sentence.slice(1);
  };

  function words(name) {
    var found = document.getElementById("tap-words");
    return found && found.getAttribute("data-" + name);
  }

  // Each placeholder at once: a name that itself reads "%(card)s" stays as it was typed.
  function filled(sentence, values) {
    return sentence.replace(/%\((\w+)\)s/g, function (all, key) { return key in values ? values[key] : all; });
  }

  // How a note names that tap: "Ann's 5", "Bomb", or "that" when there is none (lower case: it goes inside a
  // sentence, whose first letter referee.said makes a capital).
  referee.tapWords = function () {
    var tap = referee.lastTap;
    if (!tap) return words("that") || "that";
    if (!tap.player) return tap.card;
    return filled(words("tap") || "%(name)s's %(card)s", { name: tap.player, card: tap.card });
  };
})();
