// What just happened, said once to a screen reader.
//
// The board's "Just now" and "Your turn!" are redrawn with every swap, and a region inserted already filled in is
// mostly not announced: a blind player would hear nothing of other phones' cards. The same words go into #announce
// (templates/table.html), which stays on the page, once per change (not on a redraw with the same news).
(function () {
  "use strict";
  var referee = window.referee;
  var announced = null;

  function news() {
    var board = referee.board();
    if (!board) return "";
    var line = board.querySelector("#strip .just-happened");
    if (line) {
      // The news alone: not its "Why?" link (read out, a bare "Why?" at the end sounds like a question), nor the
      // broken hearts (the sentence says who lost a life already), nor the "More" that opens it on the screen.
      line = line.cloneNode(true);
      line.querySelectorAll(".why, .losses, .just-more").forEach(function (link) { link.remove(); });
    }
    var text = line ? line.textContent.replace(/\s+/g, " ").trim() : "";
    // "Your turn!" in the page's language (templates/table.html writes it on #announce).
    var region = document.getElementById("announce");
    var yourTurn = (region && region.getAttribute("data-your-turn")) || "Your turn!";
    return board.hasAttribute("data-your-turn") ? (text ? text + " " : "") + yourTurn : text;
  }

  announced = news();  // the news the page came with: a first redraw with the same news says nothing
  document.addEventListener("htmx:afterSwap", function () {
    var region = document.getElementById("announce");
    var text = news();
    if (!region || !text || text === announced) return;
    announced = text;
    region.textContent = text;
  });
})();
