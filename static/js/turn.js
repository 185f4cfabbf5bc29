// "Your turn": the phone vibrates where the browser allows, and plays an optional short sound (off unless this
// phone turned it on; remembered in localStorage), when the turn becomes this phone's player's.
(function () {
  "use strict";
  var referee = window.referee;
  var SOUND_KEY = "referee-your-turn-sound";
  var wasMyTurn = null;

  function soundOn() {
    try { return window.localStorage.getItem(SOUND_KEY) === "on"; } catch (ignored) { return false; }
  }

  // The setting is hidden in the page (templates/table.html) until this script can honour it.
  function showSoundSetting() {
    var setting = document.querySelector("[data-sound-setting]");
    var button = setting && setting.querySelector("[data-sound-toggle]");
    if (!button) return;
    setting.hidden = false;
    button.setAttribute("aria-pressed", soundOn() ? "true" : "false");
    // The words are the page's, in its language (templates/table.html: data-on, data-off).
    button.textContent = button.getAttribute(soundOn() ? "data-on" : "data-off") || button.textContent;
  }

  function beep() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    try {
      var context = new Context();
      var tone = context.createOscillator();
      var volume = context.createGain();
      tone.frequency.value = 880;
      volume.gain.value = 0.15;
      tone.connect(volume);
      volume.connect(context.destination);
      tone.start();
      tone.stop(context.currentTime + 0.18);
      tone.onended = function () { context.close(); };
    } catch (ignored) { /* no sound on this phone */ }
  }

  // Only on a change to this phone's turn, not on the page's first board nor on a redraw of the same turn.
  function cueMyTurn() {
    var board = referee.board();
    var mine = !!(board && board.hasAttribute("data-your-turn"));
    if (mine && wasMyTurn === false) {
      if (navigator.vibrate) { try { navigator.vibrate([120, 60, 120]); } catch (ignored) { /* not allowed */ } }
      if (soundOn()) beep();
    }
    wasMyTurn = mine;
  }

  // The setting sits outside the board, never swapped: its button keeps its own listener.
  var toggle = document.querySelector("[data-sound-toggle]");
  if (toggle) {
    toggle.addEventListener("click", function () {
      try { window.localStorage.setItem(SOUND_KEY, soundOn() ? "off" : "on"); } catch (ignored) { /* private mode */ }
      showSoundSetting();
      if (soundOn()) beep();
    });
  }
  document.addEventListener("htmx:afterSwap", cueMyTurn);
  showSoundSetting();
  cueMyTurn();
})();
