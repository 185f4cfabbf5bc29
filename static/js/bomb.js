// The Bomb sheet says beside Confirm who loses a life, again at each tick: with a phone's text made large the names
// scroll out of sight while Confirm stays in view. The server writes the first sentence (templates/_board.html);
// this one says it again for whichever names are left unticked.
(function () {
  "use strict";

  // A sentence of the page's (its data- attributes, in the page's language) with its placeholders filled in.
  function fill(sentence, values) {
    return sentence.replace(/%\((\w+)\)s/g, function (all, name) { return name in values ? values[name] : all; });
  }

  // The same words as the server's names_said (referee/engine/words.py), which wrote the sheet's first sentence:
  // "Bob", "Bob and Cy", "Bob, Cy and Dee", with "and" in the page's language (data-and). Here because the names
  // to join are the ones left unticked, known only on the phone; the server cannot send every subset joined.
  function joinNames(names, and) {
    if (names.length < 2) return names.join("");
    return fill(and || "%(names)s and %(last)s", { names: names.slice(0, -1).join(", "), last: names[names.length - 1] });
  }

  document.addEventListener("change", function (event) {
    var sheet = event.target.closest("dialog");
    var summary = sheet && sheet.querySelector(".sheet-summary");
    if (!summary) return;
    var losing = [];
    sheet.querySelectorAll("input[name=zeros]").forEach(function (box) { if (!box.checked) losing.push(box.value); });
    var names = joinNames(losing, summary.getAttribute("data-and"));
    summary.textContent = losing.length
      ? fill(summary.getAttribute("data-losing") || "Losing a life: %(names)s.", { names: names })
      : summary.getAttribute("data-nobody") || "Nobody loses a life.";
  });
})();
