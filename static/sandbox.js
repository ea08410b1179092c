// The sandbox player. Progressive enhancement: without this file the page
// shows every trace whole, rendered on the server. With it, each trace is
// streamed live over server-sent events and played on the simulated clock:
// play, pause, step, 1x or 4x, and an optional prediction before each move.
(function () {
  "use strict";

  var STEP_MS = 700; // pause between events that take no simulated time
  var MAX_WAIT_MS = 5000;

  document.addEventListener("DOMContentLoaded", function () {
    addCopyButtons(document.getElementById("copy-tpl"));
    var tpl = document.getElementById("predict-tpl");
    var traces = document.querySelectorAll("section.trace[data-agent]");
    for (var i = 0; i < traces.length; i++) {
      var sec = traces[i];
      if (sec.dataset.stream || sec.dataset.replay === "true") {
        new Player(sec, tpl);
      }
    }
  });

  // addCopyButtons puts a copy button before each block of wire JSON.
  function addCopyButtons(tpl) {
    if (!tpl || !navigator.clipboard) return;
    var blocks = document.querySelectorAll("pre[data-copy]");
    for (var i = 0; i < blocks.length; i++) {
      (function (pre) {
        var b = document.createElement("button");
        b.type = "button";
        b.className = "button copy";
        b.setAttribute("data-testid", "copy");
        b.textContent = msg(tpl, "copy");
        b.addEventListener("click", function () {
          navigator.clipboard.writeText(pre.textContent).then(function () {
            b.textContent = msg(tpl, "copied");
          }, function () {});
        });
        pre.parentNode.insertBefore(b, pre);
      })(blocks[i]);
    }
  }

  function msg(tpl, name) {
    var el = tpl && tpl.content.querySelector('[data-msg="' + name + '"]');
    return el ? el.textContent : "";
  }

  function actorLabel(tpl, actor) {
    var el = tpl && tpl.content.querySelector('[data-actor="' + actor + '"]');
    return el ? el.textContent : actor;
  }

  function Player(sec, tpl) {
    var self = this;
    this.sec = sec;
    this.tpl = tpl;
    this.list = sec.querySelector("ol.events");
    this.live = sec.querySelector("[data-live]");
    this.clock = sec.querySelector("[data-clock]");
    this.queue = [];
    this.ended = false;
    this.playing = false;
    this.speed = 1;
    this.timer = null;
    this.prompting = false;

    sec.classList.add("js-player");
    var controls = sec.querySelector("[data-player]");
    controls.hidden = false;
    this.playButton = controls.querySelector('[data-act="play"]');
    this.playButton.addEventListener("click", function () { self.toggle(); });
    controls.querySelector('[data-act="step"]').addEventListener("click", function () { self.step(); });
    var speeds = controls.querySelectorAll("[data-speed]");
    for (var i = 0; i < speeds.length; i++) {
      speeds[i].addEventListener("click", function (e) {
        self.speed = parseInt(e.currentTarget.dataset.speed, 10) || 1;
        for (var j = 0; j < speeds.length; j++) {
          speeds[j].setAttribute("aria-pressed", speeds[j] === e.currentTarget ? "true" : "false");
        }
      });
    }
    this.predictBox = controls.querySelector("[data-predict]");

    // The server-rendered items stay as the fallback if the stream fails.
    this.fallback = Array.prototype.slice.call(this.list.children);
    for (var k = 0; k < this.fallback.length; k++) {
      this.list.removeChild(this.fallback[k]);
    }
    if (sec.dataset.replay === "true") {
      // A replay plays through on its own, where the form left the page.
      this.queue = this.fallback.slice();
      this.ended = true;
      this.reveal();
      this.toggle();
    } else {
      this.stream(sec.dataset.stream);
    }
  }

  Player.prototype.stream = function (url) {
    var self = this;
    var es = new EventSource(url);
    es.addEventListener("step", function (e) {
      var data = JSON.parse(e.data);
      var t = document.createElement("template");
      t.innerHTML = data.html;
      var li = t.content.firstElementChild;
      if (!li) return;
      self.queue.push(li);
      if (self.list.children.length === 0) {
        self.reveal(); // show the task at once
      } else if (self.playing && !self.timer && !self.prompting) {
        self.schedule(0);
      }
    });
    es.addEventListener("end", function () {
      es.close();
      self.ended = true;
    });
    var fail = function () {
      es.close();
      if (self.ended) return;
      self.ended = true;
      self.queue = [];
      self.list.textContent = "";
      for (var i = 0; i < self.fallback.length; i++) self.list.appendChild(self.fallback[i]);
      self.say(msg(self.tpl, "stream_error"));
      self.stop();
    };
    es.addEventListener("failed", fail);
    es.addEventListener("error", function () {
      if (!self.ended) fail();
    });
  };

  Player.prototype.toggle = function () {
    if (this.playing) {
      this.stop();
    } else {
      this.playing = true;
      this.playButton.textContent = this.playButton.dataset.pause;
      this.schedule(0);
    }
  };

  Player.prototype.stop = function () {
    this.playing = false;
    this.playButton.textContent = this.playButton.dataset.play;
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
  };

  Player.prototype.step = function () {
    this.stop();
    if (!this.prompting) this.reveal();
  };

  Player.prototype.schedule = function (ms) {
    var self = this;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(function () {
      self.timer = null;
      if (self.playing && !self.prompting) self.reveal();
    }, ms);
  };

  // reveal shows the next event, first asking for a prediction when the
  // learner wants to predict and the event is a decision.
  Player.prototype.reveal = function () {
    var li = this.queue[0];
    if (!li) {
      if (this.ended) this.stop();
      return;
    }
    if (li.dataset.kind === "decision" && this.predictBox && this.predictBox.checked && !li.dataset.asked) {
      li.dataset.asked = "yes";
      this.ask(li);
      return;
    }
    this.queue.shift();
    this.list.appendChild(li);
    var at = li.querySelector(".ev-time");
    if (at && this.clock) this.clock.textContent = at.textContent;
    var say = li.querySelector(".ev-say");
    var move = li.querySelector(".move");
    this.say((say ? say.textContent : "") + (move ? " " + move.textContent : ""));
    var delay = STEP_MS;
    if (li.dataset.kind === "wait") {
      // Long simulated waits (a coordinator's minute) play capped at 5 s.
      delay = Math.min(Math.max(parseInt(li.dataset.waitMs, 10) || 0, STEP_MS), MAX_WAIT_MS);
      var bar = li.querySelector(".wait-bar span");
      if (bar) {
        bar.style.transitionDuration = delay / this.speed / 1000 + "s";
        // The next frame starts the transition from zero width.
        requestAnimationFrame(function () { requestAnimationFrame(function () { bar.style.width = "100%"; }); });
      }
    }
    if (this.queue.length === 0 && this.ended) {
      this.stop();
      return;
    }
    if (this.playing) this.schedule(delay / this.speed);
  };

  Player.prototype.say = function (text) {
    if (this.live) this.live.textContent = text;
  };

  // ask shows the prediction prompt for a decision and waits for an answer.
  Player.prototype.ask = function (decision) {
    var self = this;
    this.prompting = true;
    var box = document.createElement("li");
    box.className = "ev ev-predict";
    box.appendChild(this.tpl.content.querySelector(".predict").cloneNode(true));
    var q = box.querySelector(".predict-q");
    q.textContent = msg(this.tpl, "question").replace("{actor}", actorLabel(this.tpl, decision.dataset.actor));
    var options = (decision.dataset.options || "").split(" ");
    var buttons = box.querySelectorAll("[data-move]");
    for (var i = 0; i < buttons.length; i++) {
      var b = buttons[i];
      if (b.dataset.move && options.indexOf(b.dataset.move) < 0) {
        b.hidden = true;
        continue;
      }
      b.addEventListener("click", function (e) {
        var move = e.currentTarget.dataset.move;
        for (var j = 0; j < buttons.length; j++) buttons[j].disabled = true;
        if (!move) {
          box.parentNode.removeChild(box);
          self.answered();
          return;
        }
        self.send(decision, move, q, function () { self.answered(); });
      });
    }
    this.list.appendChild(box);
    var first = box.querySelector("button:not([hidden])");
    if (first) first.focus();
  };

  Player.prototype.answered = function () {
    this.prompting = false;
    this.reveal();
  };

  // send stores the prediction and shows whether it matched the policy.
  Player.prototype.send = function (decision, move, q, done) {
    var self = this;
    var sec = this.sec;
    var body = new URLSearchParams();
    var csrf = this.tpl.content.querySelector('input[name="_csrf"]');
    body.set("_csrf", csrf ? csrf.value : "");
    body.set("scenario", sec.dataset.scenario);
    body.set("agent", sec.dataset.agent);
    if (sec.dataset.generic === "true") body.set("generic", "1");
    body.set("seed", sec.dataset.seed);
    body.set("decision", decision.dataset.decision);
    body.set("move", move);
    fetch(sec.dataset.predictUrl, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { "Accept": "application/json" }
    }).then(function (r) {
      return r.ok ? r.json() : null;
    }).then(function (res) {
      if (res) {
        var label = function (m) {
          var b = self.tpl.content.querySelector('[data-move="' + m + '"]');
          return b ? b.textContent : m;
        };
        var text = res.correct
          ? msg(self.tpl, "right").replace("{move}", label(res.expected))
          : msg(self.tpl, "wrong").replace("{got}", label(move)).replace("{move}", label(res.expected));
        var p = document.createElement("p");
        p.className = "verdict " + (res.correct ? "ok" : "bad");
        p.setAttribute("data-testid", "prediction-verdict");
        p.setAttribute("data-correct", res.correct ? "true" : "false");
        p.textContent = text;
        q.parentNode.appendChild(p);
        self.say(text);
      }
      done();
    }, function () { done(); });
  };
})();
