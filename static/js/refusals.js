// A refusal is seen. A refused tap answers with the board and the reason in its banner, at the top. A form far down
// the page (a player's hand fix) would leave that sentence off-screen, and the player, seeing the form close, would
// think it worked. When no alert on the new board is in view, the first refusal is scrolled into view (not hx-swap's
// "show:", which would scroll on every answer, even with an alert already in view).
(function () {
  "use strict";
  var referee = window.referee;

  function inView(element) {
    var box = element.getBoundingClientRect();
    return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight;
  }

  document.addEventListener("htmx:afterSwap", function () {
    var board = referee.board();
    if (!board) return;
    var alerts = board.querySelectorAll("[role=alert]");
    for (var i = 0; i < alerts.length; i++) if (inView(alerts[i])) return;
    var refusal = board.querySelector(".banner.error");
    if (refusal) refusal.scrollIntoView({ block: "center" });
  });
})();
