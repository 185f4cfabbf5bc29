// A new board changes the one on screen in place: a tap's answer and a live refresh keep every element that is still
// there, and only what differs changes (an attribute, a text, an element added or gone).
//
// Swapped whole, each board (about 16 KB, several hundred elements) was parsed, htmx cleaned up every old element
// and wired up every new one, the focused and hovered button was torn down, and the page styled and laid out the
// whole board again: on a phone slowed 4x that was most of a tap's time after the network's (docs/performance.md,
// "The board changed in place"). In place, the pad's buttons stay and only their words and enablement change.
//
// Live regions (aria-live, role=status or alert) are still replaced whole, as before: changed in place they would be
// read out as well as the news that announce.js says once. Form fields take the new value, as new fields would
// (fix.js keeps a Fix being typed). htmx wires up what was added.
//
// An htmx extension (htmx's documented defineExtension and handleSwap), active under #live (hx-ext in
// templates/table.html). The board's markup still says hx-swap="outerHTML": a page whose script predates this one
// swaps whole boards as it always did; this one asks htmx for the "morph" swap instead, in htmx:beforeSwap.
(function () {
  "use strict";
  var htmx = window.htmx;
  if (!htmx) return;

  function isLive(node) {
    return node.nodeType === 1 && (node.hasAttribute("aria-live") || /^(status|alert)$/.test(node.getAttribute("role")));
  }

  // A live region is kept only as it was; changed, it is replaced. So is an element whose request changed (the
  // board's #refresh, whose URL names the revision shown): htmx reads hx-get once, when it wires the element up,
  // and wiring the same element up again would leave the live stream's listener for it twice.
  function same(old, fresh) {
    return old.nodeName === fresh.nodeName && (old.nodeType !== 1 || (old.id === fresh.id &&
      old.getAttribute("hx-get") === fresh.getAttribute("hx-get"))) && !(isLive(old) && !old.isEqualNode(fresh));
  }

  function morphAttributes(old, fresh) {
    var i, name;
    for (i = fresh.attributes.length - 1; i >= 0; i--) {
      name = fresh.attributes[i].name;
      if (old.getAttribute(name) !== fresh.attributes[i].value) old.setAttribute(name, fresh.attributes[i].value);
    }
    for (i = old.attributes.length - 1; i >= 0; i--) {
      name = old.attributes[i].name;
      if (!fresh.hasAttribute(name)) old.removeAttribute(name);
    }
    // What a new field would show: its value and tick as the server wrote them (attributes alone keep a typed value).
    if (old.nodeName === "INPUT" || old.nodeName === "TEXTAREA") {
      if (old.value !== fresh.value) old.value = fresh.value;
      if (old.checked !== fresh.checked) old.checked = fresh.checked;
    }
  }

  // A tap's log: only its changes (templates/_board.html), made here on the log the phone shows: the items gone from
  // the board's window, then the new ones, each list after the item its data-after names (at the top without one),
  // and "Show all". As htmx's hx-swap-oob would place them, without its out-of-band swaps and hx-preserve, which cost
  // about 15 ms a tap on a phone slowed 4x (docs/performance.md, "The board changed in place").
  function changeLog(log, changes, board) {
    var list = log.querySelector("#log-list");
    (changes.getAttribute("data-remove") || "").split(" ").forEach(function (id) {
      var item = id && document.getElementById(id);
      if (item && log.contains(item)) item.remove();
    });
    [].slice.call(changes.children).forEach(function (part) {
      var after = part.getAttribute("data-after"), anchor = document.getElementById(after || part.id), items;
      if (part.nodeName !== "OL") {
        if (anchor && log.contains(anchor) && same(anchor, part)) morph(anchor, part, board);
      } else if (list && (!after || (anchor && log.contains(anchor)))) {
        items = [].slice.call(part.children);
        if (after) anchor.after.apply(anchor, items);
        else list.prepend.apply(list, items);
        board.added.push.apply(board.added, items);
      }
    });
  }

  // Most of the board is as it was (the log, the players' Fix forms): compared natively, whole, and left alone.
  function morph(old, fresh, board) {
    if (old.nodeType !== 1) {
      if (old.nodeValue !== fresh.nodeValue) old.nodeValue = fresh.nodeValue;
    } else if (fresh.hasAttribute("data-changes")) {
      changeLog(old, fresh, board);
    } else if (!old.isEqualNode(fresh)) {
      morphAttributes(old, fresh);
      morphChildren(old, fresh, board);
    }
  }

  // An element without an id gone from before fresh's match (the version field of each form of a whole page, which
  // a board sent to htmx carries once, in its hx-vals): that match, or null.
  function matchAfterGone(old, fresh) {
    if (!old || old.nodeType !== 1 || old.id || fresh.nodeType !== 1 || same(old, fresh)) return null;
    var ahead = old.nextElementSibling;
    return ahead && same(ahead, fresh) ? ahead : null;
  }

  // board: {ids: the ids in the new board, added: the elements put in}.
  function morphChildren(parent, freshParent, board) {
    var old = parent.firstChild;
    var fresh = freshParent.firstChild;
    var next, moved;
    while (fresh) {
      next = fresh.nextSibling;
      // The usual cases first, in one native call each: an element as it was (isEqualNode compares its name, its
      // attributes, the id and hx-get among them, and all it holds), and the text between elements. A phone slowed
      // 4x spent about a third of its morphing on the general case below for these.
      if (old && old.nodeType === 1 && old.isEqualNode(fresh)) {
        old = old.nextSibling;
        fresh = next;
        continue;
      }
      if (old && old.nodeType === 3 && fresh.nodeType === 3) {
        if (old.nodeValue !== fresh.nodeValue) old.nodeValue = fresh.nodeValue;
        old = old.nextSibling;
        fresh = next;
        continue;
      }
      moved = matchAfterGone(old, fresh);
      while (moved && old !== moved) {
        next = old.nextSibling;
        parent.removeChild(old);
        old = next;
      }
      next = fresh.nextSibling;
      // Gone: an element whose id the new board does not have, or one this element replaces (a live region or a
      // request that changed).
      while (old && old.nodeType === 1 && ((old.id && !board.ids[old.id]) || (isLive(old) && !old.isEqualNode(fresh)) ||
          (old.id && old.id === fresh.id && !same(old, fresh)))) {
        moved = old;
        old = old.nextSibling;
        parent.removeChild(moved);
      }
      moved = fresh.id && document.getElementById(fresh.id);
      if (old && same(old, fresh)) {
        morph(old, fresh, board);
        old = old.nextSibling;
      } else if (moved && moved.parentNode === parent && same(moved, fresh)) {
        parent.insertBefore(moved, old);
        morph(moved, fresh, board);
      } else {
        parent.insertBefore(fresh, old);
        if (fresh.nodeType === 1) board.added.push(fresh);
      }
      fresh = next;
    }
    while (old) {
      next = old.nextSibling;
      parent.removeChild(old);
      old = next;
    }
  }

  htmx.defineExtension("morph", {
    handleSwap: function (style, target, fragment) {
      if (style !== "morph") return false;
      var fresh = fragment.firstElementChild;
      if (!fresh || fresh.id !== target.id || fresh.nodeName !== target.nodeName) {
        var nodes = [].slice.call(fragment.childNodes);
        target.replaceWith.apply(target, nodes);
        return nodes;
      }
      var board = {ids: {}, added: []};
      var named = fresh.querySelectorAll("[id]");
      for (var i = 0; i < named.length; i++) board.ids[named[i].id] = true;
      morphAttributes(target, fresh);
      morphChildren(target, fresh, board);
      // htmx wires up what was put in. Nothing kept needs it again: what a kept element asks for never changes
      // (same() above), and hx-vals, which do (the version and revision shown), are read at each request.
      return board.added;
    }
  });

  // A tap says that this script makes a log's changes in place (referee/web/pages/loglines.py, LOG_CHANGES): its
  // answer may then bring only them. The script says it, not the page's markup, which a page with an older script
  // would also carry.
  document.addEventListener("htmx:configRequest", function (event) {
    var detail = event.detail;
    if (detail.verb === "post" && detail.elt && detail.elt.closest && detail.elt.closest("#board")) {
      detail.parameters.log = "changes";
    }
  });

  // Only the board, and only an answer that is a board (an error page is not swapped in: notentered.js).
  document.addEventListener("htmx:beforeSwap", function (event) {
    var detail = event.detail;
    if (detail.target && detail.target.id === "board" && typeof detail.serverResponse === "string" &&
        /^\s*<section id="board"/.test(detail.serverResponse)) {
      detail.swapOverride = "morph";
    }
  });
})();
