// Enter in the rematch form's "New players" box (templates/_rematch.html) sends the form from its button.
// The phone keyboard's Go key sends the form from the text box, and a refusal then came back with the focus left in
// the box and its sentence, beside the button, a screen or more below. Sent from the button instead, the answer puts
// the focus back on the button (htmx restores it by id) with the sentence just above it, on screen.
(function () {
  "use strict";

  document.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" || !event.target.matches || !event.target.matches("form.rematch-form input[type=text]")) return;
    var button = event.target.form.querySelector("#rematch-go");
    if (!button) return;
    event.preventDefault();
    button.focus();
    button.click();
  });
})();
