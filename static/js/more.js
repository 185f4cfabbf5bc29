// The "Just now" line's "More" (templates/_board.html) only where it opens something: the server draws it for a
// sentence that may pass two lines on a small phone, and on a wider screen that sentence may fit.
(function () {
  "use strict";
  function fit() {
    var text = document.querySelector("#strip .just-text");
    var more = document.querySelector("#strip .just-more");
    // An open one stays, to close again; a style, as app.css's display outranks the hidden attribute.
    if (text && more) more.style.display = more.open || text.scrollHeight > text.clientHeight ? "" : "none";
  }
  fit();
  document.addEventListener("htmx:afterSwap", fit);
  window.addEventListener("resize", fit);
})();
