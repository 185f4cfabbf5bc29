// Spoken calls: after each change of the table, a short call out loud ("7, Bob's turn.", "Ann and Cy lose a life.",
// "Round 2.", "Bob is out.", "Ann wins!"), for whoever is not looking at the screen: a child, someone across the
// table, someone who cannot see it well. Off unless this browser turned it on ("Speak the calls", beside the "Your
// turn" sound on a phone, at the top of the table display; remembered in localStorage).
//
// The browser's own speech synthesis (window.speechSynthesis) speaks, with the voices on the device: no internet
// needed, nothing leaves the phone. Each call is in the page's language and says so (data-call-lang), and is read by
// one of the device's voices for that language; where the browser has no speech, no voice at all, or none for that
// language (a French voice reading German is not understood) it stays silent and the switch's hint says so. One
// call at a time: a newer call cancels one still being spoken, so the table hears the latest, not a queue.
//
// The words are the server's: each board and each redraw of the table display carries its call in data-call
// (referee/web/pages/calls.py), with its table version in data-version; the switch's hint carries its sentences
// (templates/_speech.html). A page's first board says nothing, and nor does a redraw of the same version; turning the
// switch on says the call of the board it shows.
(function () {
  "use strict";
  var KEY = "referee-speak-calls";
  var synth = window.speechSynthesis;
  var Utterance = window.SpeechSynthesisUtterance;
  var toggle = document.querySelector("[data-speech-toggle]");
  var hint = document.querySelector("[data-speech-hint]");
  if (!toggle || !hint) return;
  // Whether the browser has a voice: null until it is known. Chrome lists its voices only after "voiceschanged";
  // a browser with none may never send it, so after 2 s an empty list counts as no voice.
  var hasVoice = null;
  // Whether one of those voices reads the page's language (the calls' language): null until the voices are known.
  var hasLanguageVoice = null;
  var heard = null;  // the table version whose call this page last had
  var pending = false;

  function isOn() {
    try { return localStorage.getItem(KEY) === "on"; } catch (ignored) { return false; }
  }

  // A board's call, in the call's own language (data-call-lang): the voice must be able to read its words.
  function speak(board) {
    if (board) say(board.getAttribute("data-call"), board.getAttribute("data-call-lang"));
  }

  // The primary language of a tag ("de" of "de-DE", "de_AT").
  function primary(tag) {
    return String(tag || "").toLowerCase().split(/[-_]/)[0];
  }

  // The device's voice for `lang`: its default one for that language if it has one, else one on the device (no
  // network needed), else any; null when it has none for that language.
  function voiceFor(lang) {
    var wanted = primary(lang);
    var voices = synth.getVoices().filter(function (voice) { return primary(voice.lang) === wanted; });
    var pick = function (test) { return voices.filter(test)[0]; };
    return pick(function (v) { return v.default; }) || pick(function (v) { return v.localService; }) || voices[0] ||
      null;
  }

  function say(words, lang, volume) {
    if (!synth || !Utterance || hasVoice === false || !words) return;
    lang = lang || document.documentElement.lang;
    var voice = synth.getVoices().length ? voiceFor(lang) : null;
    // Voices listed, but none for this language: silent (the hint says so) rather than words no one understands.
    if (synth.getVoices().length && !voice) return;
    var utterance = new Utterance(words);
    utterance.lang = lang;
    if (voice) utterance.voice = voice;
    if (volume !== undefined) utterance.volume = volume;
    // One call at a time: the newer one replaces the one still being spoken (or waiting to be).
    if (synth.speaking || synth.pending) synth.cancel();
    synth.speak(utterance);
  }

  // After each update of the board or the display (several swaps of one update make one call): its call, once per
  // table version. The table display's live region, or else a phone's board.
  function shown() {
    return document.querySelector("#display [data-version]") || window.referee.board();
  }

  function update() {
    pending = false;
    var board = shown();
    var version = board && board.getAttribute("data-version");
    if (!version || version === heard) return;
    if (heard !== null && isOn()) speak(board);
    heard = version;
  }

  // Chrome and Safari let a page speak only once it has been tapped (their autoplay rules): a switch remembered on
  // from an earlier visit says so until the first tap, which also wakes Safari's speech with a silent call.
  function waitingForTap() {
    return isOn() && navigator.userActivation && !navigator.userActivation.hasBeenActive;
  }

  function showSwitch() {
    toggle.parentNode.hidden = hint.hidden = false;
    toggle.setAttribute("aria-pressed", String(isOn()));
    hint.textContent = hint.getAttribute(!synth || !Utterance || hasVoice === false ? "data-no-voice"
      : hasLanguageVoice === false ? "data-no-language-voice" : waitingForTap() ? "data-tap" : "data-says");
  }

  toggle.addEventListener("click", function () {
    var on = !isOn();
    try { localStorage.setItem(KEY, on ? "on" : "off"); } catch (ignored) { /* private mode */ }
    if (synth && !on) synth.cancel();
    showSwitch();
    // Turned on, it says where the table stands now: the first call is heard at once.
    if (on) speak(shown());
  });
  if (waitingForTap()) {
    ["pointerdown", "keydown"].forEach(function (type) {
      document.addEventListener(type, function () {
        if (synth && !synth.speaking) say(" ", null, 0);
        setTimeout(showSwitch, 0);
      }, {capture: true, once: true});
    });
  }
  // The voices the browser has: a first list, the list it loaded later, or after 2 s none.
  function listVoices(event) {
    var some = synth.getVoices().length > 0;
    if (some || event) hasVoice = some;
    if (some) hasLanguageVoice = voiceFor(callLanguage()) !== null;
    showSwitch();
  }
  // The calls' language: the board's (or display's) data-call-lang, which is the page's.
  function callLanguage() {
    var board = shown();
    return (board && board.getAttribute("data-call-lang")) || document.documentElement.lang;
  }
  if (synth) {
    setTimeout(function () { listVoices(hasVoice === null); }, 2000);
    synth.addEventListener("voiceschanged", listVoices);
    if (synth.getVoices().length) {
      hasVoice = true;
      hasLanguageVoice = voiceFor(callLanguage()) !== null;
    }
  }
  update();
  document.addEventListener("htmx:afterSettle", function () {
    if (pending) return;
    pending = true;
    setTimeout(update, 0);
  });
  showSwitch();
})();
