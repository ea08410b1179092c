// Progressive enhancement for timed exams: makes the clock tick. The server
// keeps the deadline and refuses late answers; without this file the page
// still shows the time left when it was made and when the exam ends.
document.addEventListener("DOMContentLoaded", function () {
  var clock = document.querySelector("[data-deadline]");
  if (!clock) return;
  var out = clock.querySelector("[data-remaining]");
  var alertBox = document.querySelector("[data-clock-alert]");
  var form = document.querySelector("form[data-exam-form]");
  var deadline = parseInt(clock.getAttribute("data-deadline"), 10);
  // Count on the server's clock: correct for a browser clock that is off.
  var skew = Date.now() - parseInt(clock.getAttribute("data-now"), 10);
  var warned = {};
  var dirty = false;
  var saving = false;
  var timer;

  if (form) {
    form.addEventListener("input", function () { dirty = true; });
    form.addEventListener("change", function () { dirty = true; });
    form.addEventListener("submit", function () { saving = true; });
  }

  function pad(n) { return n < 10 ? "0" + n : String(n); }
  function format(ms) {
    var s = Math.max(0, Math.ceil(ms / 1000));
    var h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60;
    s = s % 60;
    return h > 0 ? h + ":" + pad(m) + ":" + pad(s) : m + ":" + pad(s);
  }
  function warn(key, left, at) {
    if (left <= at && left > at - 60000 && !warned[key]) {
      warned[key] = true;
      if (alertBox) alertBox.textContent = clock.getAttribute(key);
    }
  }
  function tick() {
    var left = deadline - (Date.now() - skew);
    out.textContent = format(left);
    clock.classList.toggle("low", left <= 60000);
    warn("data-warn-5", left, 300000);
    warn("data-warn-1", left, 60000);
    // Save an unsaved answer while the server still takes it.
    if (form && dirty && !saving && left <= 3000 && left > 0) {
      saving = true;
      var review = form.querySelector("button[value=review]");
      if (form.requestSubmit && review) form.requestSubmit(review); else form.submit();
    }
    if (left <= 0) {
      clearInterval(timer);
      // The server submits an exam whose time is up on the next request;
      // wait a moment so its clock has passed the deadline too.
      if (!saving) setTimeout(function () { window.location.assign(clock.getAttribute("data-expired-url")); }, 1500);
    }
  }
  tick();
  timer = setInterval(tick, 1000);
});
