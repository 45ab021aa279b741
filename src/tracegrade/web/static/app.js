// tracegrade results UI: the only script (served from this origin; the CSP forbids inline).
// It reads nothing from the page as markup: only data-* numbers and element ids.
"use strict";

(function () {
  function all(selector) { return Array.prototype.slice.call(document.querySelectorAll(selector)); }

  // Selecting a claim shows the observations behind it and highlights their frames.
  function selectClaim(number) {
    all(".evidence").forEach(function (panel) {
      panel.classList.toggle("shown", panel.dataset.claim === number);
    });
    all(".claim-mark, .claim").forEach(function (el) {
      el.classList.toggle("selected", el.dataset.claim === number);
    });
    all(".frame.highlight").forEach(function (el) { el.classList.remove("highlight"); });
    var panel = document.getElementById("evidence-" + number);
    if (!panel) { return; }
    panel.querySelectorAll("[data-frame]").forEach(function (link) {
      var frame = document.getElementById("frame-" + link.dataset.frame);
      if (frame) { frame.classList.add("highlight"); }
    });
  }

  all(".claim-mark, .claim").forEach(function (el) {
    el.addEventListener("click", function () { selectClaim(el.dataset.claim); });
  });
  if (location.hash.indexOf("#evidence-") === 0) {
    selectClaim(location.hash.slice("#evidence-".length));
  }

  // Step through the frames one at a time.
  var frames = all(".frame");
  var stepper = document.getElementById("stepper");
  if (stepper && frames.length) {
    var position = document.getElementById("frame-position");
    var current = -1;
    var go = function (index) {
      if (index < 0 || index >= frames.length) { return; }
      if (current >= 0) { frames[current].classList.remove("current"); }
      current = index;
      frames[current].classList.add("current");
      frames[current].scrollIntoView({ block: "nearest" });
      position.textContent = "frame " + current + " of " + (frames.length - 1);
    };
    document.getElementById("prev-frame").addEventListener("click", function () { go(current - 1); });
    document.getElementById("next-frame").addEventListener("click", function () { go(current + 1); });
    document.addEventListener("keydown", function (event) {
      if (event.target && /INPUT|TEXTAREA/.test(event.target.tagName)) { return; }
      if (event.key === "j") { go(current + 1); }
      if (event.key === "k") { go(current - 1); }
    });
    stepper.hidden = false;
    position.textContent = frames.length + " frames";
  }
})();
