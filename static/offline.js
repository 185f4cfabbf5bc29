// The offline page: try the server every few seconds and go back to the page the player wanted once it answers.
(function () {
  "use strict";
  var status = document.getElementById("offline-status");
  // The health check's address comes from the page: under a proxy's path prefix it is not /healthz.
  var script = document.currentScript;
  var health = (script && script.getAttribute("data-health-url")) || "healthz";
  var tries = 0;

  function attempt() {
    tries += 1;
    fetch(health, { cache: "no-store" }).then(function (response) {
      if (response.ok) {
        if (status) status.textContent = "Found the table again: opening it…";
        window.location.reload();
      } else {
        waitAndRetry();
      }
    }, waitAndRetry);
  }

  function waitAndRetry() {
    if (status) status.textContent = "Still can't reach it (tried " + tries + (tries === 1 ? " time" : " times") +
      "). Trying again by itself…";
    window.setTimeout(attempt, 3000);
  }

  var button = document.getElementById("offline-retry");
  if (button) button.addEventListener("click", attempt);
  window.setTimeout(attempt, 3000);
})();
