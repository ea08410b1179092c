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
      var left = Math.max(0, Math.ceil((parseInt(clocks[i].getAttribute("data-deadline"), 10) - (Date.now() + skew)) / 1000));
      var n = clocks[i].querySelector("[data-countdown]");
      if (n) n.textContent = String(left);
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
    var area = el.querySelector("#explanation");
    var typed = area ? area.value : "";
    var focused = area && document.activeElement === area;
    el.innerHTML = html;
    fillCSRF(el);
    var again = el.querySelector("#explanation");
    if (again && typed && stageKey(el) === before) {
      again.value = typed;
      if (focused) again.focus();
    }
    tick();
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
        if (form) showError(form, err ? err.description + " " + (err.hint || "") : "");
      })
      .catch(function () { // the server is unreachable or busy: keep the answer, try again
        showConn("reconnecting");
        var wait = Math.min(5000, 500 * Math.pow(2, attempt));
        return new Promise(function (done) { setTimeout(done, wait); })
          .then(function () { return post(action, data, form, buttons, submitter, attempt + 1); });
      });
  }

  root.addEventListener("submit", function (e) {
    var form = e.target;
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

  var url = root.getAttribute("data-events");
  if (url && window.EventSource) {
    source = new EventSource(url);
    source.addEventListener("clock", function (e) { skew = parseInt(e.data, 10) - Date.now(); });
    source.addEventListener("stage", function (e) { swap("stage", e.data); });
    source.addEventListener("you", function (e) { swap("you", e.data); });
    source.addEventListener("live", function (e) { swap("live", e.data); });
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
})();
