// The offline page: try the server every few seconds and go back to the page the player wanted once it answers.
(function () {
  "use strict";
  var status = document.getElementById("offline-status");
  // The health check's address comes from the page: under a proxy's path prefix it is not /healthz.
  var script = document.currentScript;
  var health = (script && script.getAttribute("data-health-url")) || "healthz";
  var tries = 0;

  // The page's sentence in its language (templates/offline.html writes them on #offline-status), its
  // placeholders filled in; the English one if the page has none (a page kept from an older version).
  function said(attribute, english, values) {
    var sentence = (status && status.getAttribute(attribute)) || english;
    return sentence.replace(/%\((\w+)\)s/g, function (all, name) { return name in values ? values[name] : all; });
  }

  function attempt() {
    tries += 1;
    fetch(health, { cache: "no-store" }).then(function (response) {
      if (response.ok) {
        if (status) status.textContent = said("data-found", "Found the table again: opening it…", {});
        window.location.reload();
      } else {
        waitAndRetry();
      }
    }, waitAndRetry);
  }

  function waitAndRetry() {
    if (status) {
      var english = "Still can't reach it (tried %(num)s " + (tries === 1 ? "time" : "times") + "). Trying again by itself…";
      status.textContent = said(tries === 1 ? "data-tried-one" : "data-tried-many", english, { num: tries });
    }
    window.setTimeout(attempt, 3000);
  }

  var button = document.getElementById("offline-retry");
  if (button) button.addEventListener("click", attempt);
  window.setTimeout(attempt, 3000);
})();
