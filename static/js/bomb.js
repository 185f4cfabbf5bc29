// The Bomb sheet says beside Confirm who loses a life, again at each tick: with a phone's text made large the names
// scroll out of sight while Confirm stays in view. The server writes the first sentence (templates/_board.html);
// this one says it again for whichever names are left unticked.
(function () {
  "use strict";

  // The same words as join_names (referee/engine/narrate.py), which wrote the sheet's first sentence: "Bob",
  // "Bob and Cy", "Bob, Cy and Dee". Here because the names to join are the ones left unticked, known only on
  // the phone; the server cannot send every subset already joined.
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
})();
