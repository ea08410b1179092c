// Classroom pages, progressive enhancement only: without this file every
// form posts and the page reloads. With it, the room's event stream swaps
// in the stage, the student's own line and the host's live panel, the
// countdown ticks, and answers and host buttons post without a reload.
(function () {
  "use strict";
  var root = document.getElementById("class-root");
  if (!root) return;
  var csrf = root.getAttribute("data-csrf") || "";
  var skew = 0; // server clock minus ours, so countdowns agree with the server
  var serverNow = parseInt(root.getAttribute("data-server-now"), 10);
  if (serverNow) skew = serverNow - Date.now();
  var source = null;

  function fillCSRF(el) {
    var inputs = el.querySelectorAll("input[name=_csrf]");
    for (var i = 0; i < inputs.length; i++) if (!inputs[i].value) inputs[i].value = csrf;
  }

  function tick() {
    var clocks = root.querySelectorAll("[data-deadline]");
    for (var i = 0; i < clocks.length; i++) {
      var ms = parseInt(clocks[i].getAttribute("data-deadline"), 10) - (Date.now() + skew);
      var left = Math.max(0, Math.ceil(ms / 1000));
      var n = clocks[i].querySelector("[data-countdown]");
      if (n) n.textContent = String(left);
      var ring = clocks[i].querySelector(".ring-left");
      var total = parseInt(clocks[i].getAttribute("data-seconds"), 10);
      if (ring && total > 0) { // an attribute, not a style: the CSP allows it
        ring.setAttribute("stroke-dashoffset", String(100 - Math.round(100 * Math.min(1, Math.max(0, ms / 1000 / total)))));
      }
      if (left === 0) {
        var buttons = root.querySelectorAll("button.choice");
        for (var j = 0; j < buttons.length; j++) buttons[j].disabled = true;
      }
    }
  }
  setInterval(tick, 250);

  function stageKey(el) {
    var s = el.querySelector(".stage");
    return s ? s.getAttribute("data-phase") + "/" + s.getAttribute("data-question-index") : "";
  }

  // swap replaces a region, keeping an explanation being typed when the
  // region still shows the same question.
  function swap(id, html) {
    var el = document.getElementById(id);
    if (!el) return;
    var before = stageKey(el);
    // An open confirmation (Remove a student) stays open across a redraw.
    var open = {};
    var was = el.querySelectorAll("details[data-keep-open][open]");
    for (var o = 0; o < was.length; o++) open[was[o].getAttribute("data-keep-open")] = true;
    var wasExplaining = el.querySelector("form[data-explaining]");
    var chosen = wasExplaining ? wasExplaining.getAttribute("data-explaining") : "";
    var area = el.querySelector("#explanation");
    var typed = area ? area.value : "";
    var focused = area && document.activeElement === area;
    el.innerHTML = html;
    fillCSRF(el);
    var keep = el.querySelectorAll("details[data-keep-open]");
    for (var k = 0; k < keep.length; k++) if (open[keep[k].getAttribute("data-keep-open")]) keep[k].open = true;
    var again = el.querySelector("#explanation");
    var same = stageKey(el) === before;
    if (again && typed && same) {
      again.value = typed;
      if (focused) again.focus();
    }
    prepareExplain(el);
    if (same && chosen) choose(el.querySelector("form[data-explain]"), chosen);
    // A new step starts at the top: the projector shows the whole of it.
    if (id === "stage" && !same) window.scrollTo(0, 0);
    if (id === "stage") showPanel(panelOpen);
    if (id === "stage" || id === "live") fit();
    tick();
  }

  // The question on the projector fits one screen: the text shrinks, by
  // halving the range, until no box overflows and the page does not
  // scroll, but never below FIT_FLOOR of its full size (the stylesheet's
  // sizes follow the screen's height, so the floor stays readable).
  var FIT_FLOOR = 0.5;
  function fits(stage) {
    var doc = document.documentElement;
    if (doc.scrollHeight > window.innerHeight + 0.5 || doc.scrollWidth > window.innerWidth + 0.5) return false;
    var boxes = stage.querySelectorAll("[data-fit-box]");
    for (var i = 0; i < boxes.length; i++) {
      if (boxes[i].scrollHeight > boxes[i].clientHeight + 1 || boxes[i].scrollWidth > boxes[i].clientWidth + 1) return false;
    }
    return true;
  }
  var LAYOUTS = ["side", "tiles", "stem", "stack"];
  function fit() {
    var stage = root.querySelector(".stage[data-phase=question]");
    if (stage && document.body.classList.contains("projector")) {
      var set = function (f) { stage.style.setProperty("--fit", String(f)); }; // CSSOM, which the CSP allows
      var best = "", bestFit = 0;
      for (var l = 0; l < LAYOUTS.length && bestFit < 1; l++) {
        stage.setAttribute("data-layout", LAYOUTS[l]);
        var f = largestFit(stage, set, bestFit);
        if (f > bestFit) { bestFit = f; best = LAYOUTS[l]; }
      }
      if (!best) best = leastOverflow(stage, set);
      stage.setAttribute("data-layout", best);
      set(bestFit || FIT_FLOOR);
    }
    root.setAttribute("data-fit", "done");
  }
  // leastOverflow is the layout that overflows least at FIT_FLOOR, for a
  // question too long for any: the screen then shows the most of it.
  function leastOverflow(stage, set) {
    set(FIT_FLOOR);
    var best = LAYOUTS[0], least = Infinity;
    for (var l = 0; l < LAYOUTS.length; l++) {
      stage.setAttribute("data-layout", LAYOUTS[l]);
      var over = 0, boxes = stage.querySelectorAll("[data-fit-box]");
      for (var i = 0; i < boxes.length; i++) over += Math.max(0, boxes[i].scrollHeight - boxes[i].clientHeight);
      if (over < least) { least = over; best = LAYOUTS[l]; }
    }
    return best;
  }
  // largestFit is the largest text size at which the stage fits in its
  // current layout, 0 when it does not fit even at FIT_FLOOR or at beat.
  function largestFit(stage, set, beat) {
    set(1);
    if (fits(stage)) return 1;
    var lo = Math.max(FIT_FLOOR, beat);
    set(lo);
    if (!fits(stage)) return 0;
    var hi = 1;
    for (var i = 0; i < 6; i++) {
      var mid = (lo + hi) / 2;
      set(mid);
      if (fits(stage)) lo = mid; else hi = mid;
    }
    return lo;
  }
  var fitFrame = 0; // resize events come in bursts: fit once per frame
  window.addEventListener("resize", function () { cancelAnimationFrame(fitFrame); fitFrame = requestAnimationFrame(fit); });

  // The teacher's panel (roster, Remove, activity, language) opens from the
  // host bar over the screen; closed, the projector shows none of it.
  var panel = document.getElementById("teacher-panel");
  var panelOpen = false;
  function showPanel(openIt) {
    panelOpen = openIt;
    if (panel) panel.hidden = !openIt;
    var toggles = root.querySelectorAll("[data-panel-toggle]");
    for (var i = 0; i < toggles.length; i++) {
      toggles[i].hidden = !panel;
      toggles[i].setAttribute("aria-expanded", openIt ? "true" : "false");
    }
  }
  if (panel) {
    root.setAttribute("data-panel", "");
    showPanel(false);
    root.addEventListener("click", function (e) {
      var t = e.target.closest ? e.target.closest("[data-panel-toggle]") : null;
      if (t) showPanel(!panelOpen);
    });
  }

  // With explanations asked for, a tapped tile is chosen first; the
  // explanation box and Send come after it. Without script the box is
  // always there and a tile posts at once.
  function prepareExplain(scope) {
    var forms = scope.querySelectorAll("form[data-explain]");
    for (var i = 0; i < forms.length; i++) {
      var f = forms[i];
      if (f.getAttribute("data-explain") === "off" || f.hasAttribute("data-prepared")) continue;
      f.setAttribute("data-prepared", "");
      var step = f.querySelector("[data-explain-step]");
      if (step && !f.hasAttribute("data-explaining")) step.hidden = true;
    }
  }

  function choose(form, letter) {
    if (!form) return;
    var step = form.querySelector("[data-explain-step]");
    var send = form.querySelector("[data-send]");
    if (!step || !send) return false;
    form.setAttribute("data-explaining", letter);
    step.hidden = false;
    send.hidden = false;
    send.value = letter;
    var line = form.querySelector("[data-chosen-line]");
    if (line) { line.hidden = false; line.querySelector("[data-chosen]").textContent = letter; }
    var tiles = form.querySelectorAll("button.choice");
    for (var i = 0; i < tiles.length; i++) {
      tiles[i].setAttribute("aria-pressed", tiles[i].value === letter ? "true" : "false");
    }
    var box = form.querySelector("#explanation");
    if (box) box.focus();
    return true;
  }

  function showError(form, message) {
    var box = form.querySelector("[data-error]");
    if (!box) { // host buttons have no box of their own: add one, never a blocking alert
      box = document.createElement("p");
      box.className = "form-error";
      box.setAttribute("role", "alert");
      box.setAttribute("data-error", "");
      form.appendChild(box);
    }
    box.textContent = message;
    box.hidden = false;
    showPending(form, false);
    if (box.scrollIntoView) box.scrollIntoView({ block: "nearest", behavior: "instant" });
  }

  // showPending says an answer tapped during an outage is kept and will be
  // sent when the connection is back.
  function showPending(form, on) {
    var note = form && form.querySelector("[data-pending]");
    if (!note) return;
    note.hidden = !on;
    var refused = form.querySelector("[data-error]");
    if (on && refused) refused.hidden = true; // the kept answer replaces an earlier refusal
    if (on && note.scrollIntoView) note.scrollIntoView({ block: "nearest", behavior: "instant" });
  }

  function setButtons(buttons, disabled) {
    for (var i = 0; i < buttons.length; i++) buttons[i].disabled = disabled;
  }

  function showConn(state) { // "", "reconnecting" or "replaced"
    var boxes = root.querySelectorAll("[data-conn]");
    for (var i = 0; i < boxes.length; i++) boxes[i].hidden = boxes[i].getAttribute("data-conn") !== state;
    root.setAttribute("data-conn-state", state || "online");
  }

  // An answer is kept in sessionStorage until the server has taken it, so a
  // tap during an outage, or a reload meanwhile, is sent when the server is
  // back. The room's key for an answer is (player, question): sending it
  // again is taken once, or told "already answered".
  var pendingKey = "examsim-answer:" + (root.getAttribute("data-events") || location.pathname);

  function post(action, data, form, buttons, submitter, attempt) {
    return fetch(action, { method: "POST", body: data, credentials: "same-origin",
      headers: { "Accept": "application/json" } })
      .then(function (r) {
        return r.json().then(function (body) { return { ok: r.ok, status: r.status, body: body }; },
          function () { return { ok: false, status: r.status, body: null }; });
      })
      .then(function (res) {
        var err = res.body && res.body.error;
        if (res.ok || !err || !err.isRetryable) {
          try { sessionStorage.removeItem(pendingKey); } catch (x) {}
        }
        if (res.ok) { showConn(""); return; } // the stream brings the new screen
        if (!err && res.status >= 500 || err && err.isRetryable) throw new Error("retry");
        setButtons(buttons, false);
        if (submitter) submitter.removeAttribute("aria-pressed");
        if (form) showError(form, err ? (err.description + " " + (err.hint || "")).trim() : "");
      })
      .catch(function () { // the server is unreachable or busy: keep the answer, try again
        showConn("reconnecting");
        showPending(form, true);
        var wait = Math.min(5000, 500 * Math.pow(2, attempt));
        return new Promise(function (done) { setTimeout(done, wait); })
          .then(function () { return post(action, data, form, buttons, submitter, attempt + 1); });
      });
  }

  root.addEventListener("submit", function (e) {
    var form = e.target;
    var tile = e.submitter && e.submitter.classList.contains("choice");
    if (tile && form.hasAttribute("data-prepared") && choose(form, e.submitter.value)) {
      e.preventDefault(); // chosen: now the explanation, then Send
      return;
    }
    // Without a live stream nothing would redraw the page: let it post.
    if (!form.hasAttribute("data-async") || !source || !window.fetch) return;
    e.preventDefault();
    var data = new URLSearchParams(new FormData(form));
    if (e.submitter && e.submitter.name) data.append(e.submitter.name, e.submitter.value);
    if (!data.get("_csrf")) data.set("_csrf", csrf);
    var buttons = form.querySelectorAll("button");
    setButtons(buttons, true);
    if (e.submitter) e.submitter.setAttribute("aria-pressed", "true");
    // getAttribute: form.action would be the button named "action".
    var action = form.getAttribute("action");
    if (/\/answer$/.test(action)) {
      try { sessionStorage.setItem(pendingKey, JSON.stringify({ action: action, body: data.toString() })); } catch (x) {}
    }
    post(action, data, form, buttons, e.submitter, 0);
  });

  function resendKept() {
    var kept = null;
    try { kept = JSON.parse(sessionStorage.getItem(pendingKey) || "null"); } catch (x) {}
    if (kept && kept.action && window.fetch) {
      var data = new URLSearchParams(kept.body);
      data.set("_csrf", csrf); // a reloaded page has a fresh token
      post(kept.action, data, null, [], null, 0);
    }
  }

  // The presenter's keys. A clicker sends arrows and Page Down, so the
  // "next" key does whatever the next step is: start, reveal, next, podium.
  var help = document.getElementById("shortcut-help");
  var helpReturn = null;
  function toggleHelp(open) {
    if (!help) return;
    help.hidden = !open;
    if (open) {
      helpReturn = document.activeElement;
      var close = help.querySelector("[data-help-close]");
      if (close) close.focus();
    } else if (helpReturn && helpReturn.focus) {
      helpReturn.focus();
    }
  }
  function press(key) {
    var b = root.querySelector('#stage button[data-key~="' + key + '"]');
    if (b && !b.disabled) b.click();
    return !!b;
  }
  if (root.classList.contains("class-host")) {
    document.addEventListener("keydown", function (e) {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      var t = e.target;
      if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable)) return;
      var k = e.key;
      if (help && !help.hidden) {
        if (k === "Escape" || k === "?") { e.preventDefault(); toggleHelp(false); }
        return;
      }
      var onControl = t && (t.tagName === "BUTTON" || t.tagName === "SUMMARY" || t.tagName === "A");
      if ((k === " " && !onControl) || k === "ArrowRight" || k === "PageDown") {
        e.preventDefault();
        press("next");
      } else if (k === "r" || k === "R") {
        press("reveal");
      } else if (k === "l" || k === "L") {
        press("leaderboard");
      } else if (k === "a" || k === "A") {
        press("auto");
      } else if (k === "f" || k === "F") {
        if (document.fullscreenElement) document.exitFullscreen();
        else if (document.documentElement.requestFullscreen) document.documentElement.requestFullscreen().catch(function () {});
      } else if (k === "?") {
        e.preventDefault();
        toggleHelp(true);
      } else if (k === "Escape") {
        var open = root.querySelector("details.end-confirm[open]");
        if (open) open.removeAttribute("open");
        else if (panelOpen) showPanel(false);
      }
    });
    root.addEventListener("click", function (e) {
      var t = e.target.closest ? e.target.closest("[data-help-open],[data-help-close]") : null;
      if (t) toggleHelp(t.hasAttribute("data-help-open"));
    });
  }
  prepareExplain(root);

  var url = root.getAttribute("data-events");
  if (url && window.EventSource) {
    source = new EventSource(url);
    source.addEventListener("clock", function (e) { skew = parseInt(e.data, 10) - Date.now(); });
    source.addEventListener("stage", function (e) { swap("stage", e.data); });
    source.addEventListener("you", function (e) { swap("you", e.data); });
    source.addEventListener("live", function (e) { swap("live", e.data); });
    source.addEventListener("roster", function (e) { swap("roster-region", e.data); });
    source.addEventListener("kicked", function (e) {
      source.close();
      window.location.href = e.data;
    });
    source.addEventListener("replaced", function () {
      source.close(); // a newer window of ours has the stream: reconnecting would close it in turn
      showConn("replaced");
    });
    // EventSource reconnects by itself after a drop, and the server sends
    // the current screen on each connect; meanwhile the page says so.
    source.addEventListener("open", function () { showConn(""); });
    source.addEventListener("error", function () {
      if (source.readyState !== 2) showConn("reconnecting");
    });
    root.setAttribute("data-live", "on");
    resendKept();
  }
  tick();
  if (document.fonts && document.fonts.ready) document.fonts.ready.then(fit); else fit();
})();
