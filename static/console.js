// The console's raw JSON-RPC panel: any method, sent by the browser itself
// to /mcp over the Streamable HTTP transport in a session of its own, with
// every notification the server sends shown as it arrives (progress while
// slow.example waits, for instance). Without JavaScript the panel stays
// hidden and says so; the tool form above works either way.
(function () {
  "use strict";

  var PROTOCOL = "2025-11-25";

  document.addEventListener("DOMContentLoaded", function () {
    var form = document.querySelector("[data-testid=rpc-form]");
    if (!form || !window.fetch || !window.TextDecoder) return;
    form.hidden = false;
    new Panel(form);
  });

  function Panel(form) {
    this.form = form;
    this.method = form.querySelector("[data-testid=rpc-method]");
    this.params = form.querySelector("[data-testid=rpc-params]");
    this.request = form.querySelector("[data-testid=rpc-request] code");
    this.response = form.querySelector("[data-testid=rpc-response] code");
    this.notes = form.querySelector("[data-testid=rpc-notifications]");
    this.none = form.querySelector("[data-testid=rpc-notifications-none]");
    this.error = form.querySelector("[data-testid=rpc-error]");
    this.session = "";
    this.nextID = 1;
    var self = this;
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      self.send();
    });
  }

  Panel.prototype.fail = function (text) {
    this.error.textContent = text;
    this.error.hidden = !text;
  };

  Panel.prototype.send = function () {
    var self = this;
    this.fail("");
    var method = this.method.value.trim();
    var params;
    try {
      params = JSON.parse(this.params.value.trim() || "{}");
    } catch (e) {
      this.fail(this.form.dataset.msgBadParams);
      return;
    }
    if (!method) {
      this.fail(this.form.dataset.msgNoMethod);
      return;
    }
    var body = { jsonrpc: "2.0", id: this.nextID++, method: method };
    if (params !== null) body.params = params;
    this.request.textContent = JSON.stringify(body, null, 2);
    this.response.textContent = "…";
    this.open().then(function () {
      return self.post(body, true);
    }).catch(function (err) {
      self.response.textContent = "";
      self.fail(self.form.dataset.msgFailed + " (" + err.message + ")");
    });
  };

  // open starts the browser's MCP session once: initialize, then
  // notifications/initialized, as every MCP client does.
  Panel.prototype.open = function () {
    if (this.session) return Promise.resolve();
    var self = this;
    var init = { jsonrpc: "2.0", id: 0, method: "initialize", params: {
      protocolVersion: PROTOCOL, capabilities: { elicitation: { form: {} } }, clientInfo: { name: "examsim-console-browser", version: "1.0.0" } } };
    return this.exchange(init, function () {}).then(function (r) {
      self.session = r.session;
      if (!self.session) throw new Error("no Mcp-Session-Id");
      return fetch("/mcp", { method: "POST", headers: self.headers(), body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) });
    });
  };

  Panel.prototype.headers = function () {
    var h = { "Content-Type": "application/json", "Accept": "application/json, text/event-stream", "MCP-Protocol-Version": PROTOCOL };
    if (this.session) h["Mcp-Session-Id"] = this.session;
    return h;
  };

  // post sends one request and shows its response; a session the server
  // has closed (404) is opened afresh once.
  Panel.prototype.post = function (body, retry) {
    var self = this;
    return this.exchange(body, function (m) { self.note(m); }).then(function (r) {
      if (r.status === 404 && retry) {
        self.session = "";
        return self.open().then(function () { return self.post(body, false); });
      }
      self.response.textContent = r.reply ? JSON.stringify(r.reply, null, 2) : r.text;
    });
  };

  // exchange POSTs a message and reads the answer, plain JSON or an SSE
  // stream; messages on the stream other than the reply go to onOther as
  // they arrive.
  Panel.prototype.exchange = function (body, onOther) {
    return fetch("/mcp", { method: "POST", headers: this.headers(), body: JSON.stringify(body) }).then(function (resp) {
      var out = { status: resp.status, session: resp.headers.get("Mcp-Session-Id") || "", reply: null, text: "" };
      var type = resp.headers.get("Content-Type") || "";
      if (type.indexOf("text/event-stream") < 0) {
        return resp.text().then(function (t) {
          out.text = t;
          try { out.reply = JSON.parse(t); } catch (e) { /* not JSON: shown as text */ }
          return out;
        });
      }
      var reader = resp.body.getReader();
      var decoder = new TextDecoder();
      var buf = "";
      function pump() {
        return reader.read().then(function (chunk) {
          if (chunk.done) return out;
          buf += decoder.decode(chunk.value, { stream: true });
          var at;
          while ((at = buf.indexOf("\n\n")) >= 0) {
            var event = buf.slice(0, at);
            buf = buf.slice(at + 2);
            var data = event.split("\n").filter(function (l) { return l.indexOf("data:") === 0; })
              .map(function (l) { return l.slice(5).replace(/^ /, ""); }).join("\n");
            if (!data) continue;
            var m;
            try { m = JSON.parse(data); } catch (e) { continue; }
            if (m.id === body.id && (m.result !== undefined || m.error !== undefined)) {
              out.reply = m;
              reader.cancel();
              return out;
            }
            onOther(m);
          }
          return pump();
        });
      }
      return pump();
    });
  };

  // note lists one message from the server, as it arrived; a question for
  // the user (elicitation/create) also gets a form to answer it.
  Panel.prototype.note = function (m) {
    if (m.method === "elicitation/create" && m.id !== undefined) this.elicit(m);
    var li = document.createElement("li");
    li.setAttribute("data-testid", "rpc-notification");
    li.setAttribute("data-method", m.method || "");
    var head = document.createElement("code");
    head.textContent = m.method || "";
    var pre = document.createElement("pre");
    pre.tabIndex = 0;
    pre.textContent = JSON.stringify(m.params || {}, null, 2);
    li.appendChild(head);
    li.appendChild(pre);
    this.notes.appendChild(li);
    this.none.hidden = true;
  };

  // elicit shows the server's question as a form built from its
  // requestedSchema; the answer (or a decline) goes back as the JSON-RPC
  // response to the server's request, while the tool call waits.
  Panel.prototype.elicit = function (m) {
    var self = this;
    var params = m.params || {};
    var props = (params.requestedSchema && params.requestedSchema.properties) || {};
    var box = document.createElement("form");
    box.className = "card elicit";
    box.setAttribute("data-testid", "rpc-elicit");
    var p = document.createElement("p");
    var strong = document.createElement("strong");
    strong.textContent = this.form.dataset.msgElicit + " ";
    p.appendChild(strong);
    p.appendChild(document.createTextNode(params.message || ""));
    box.appendChild(p);
    Object.keys(props).forEach(function (name, i) {
      var id = "elicit-" + m.id + "-" + i;
      var label = document.createElement("label");
      label.className = "block";
      label.htmlFor = id;
      label.textContent = props[name].title || name;
      var input = document.createElement("input");
      input.id = id;
      input.name = name;
      input.setAttribute("data-testid", "rpc-elicit-" + name);
      if (props[name].type === "number" || props[name].type === "integer") input.type = "number";
      box.appendChild(label);
      box.appendChild(input);
    });
    var actions = document.createElement("p");
    actions.className = "actions";
    [["accept", "button primary", this.form.dataset.msgElicitAccept], ["decline", "button", this.form.dataset.msgElicitDecline]].forEach(function (b) {
      var btn = document.createElement("button");
      btn.type = "submit";
      btn.value = b[0];
      btn.className = b[1];
      btn.textContent = b[2];
      btn.setAttribute("data-testid", "rpc-elicit-" + b[0]);
      actions.appendChild(btn);
    });
    box.appendChild(actions);
    box.addEventListener("submit", function (e) {
      e.preventDefault();
      var action = (e.submitter && e.submitter.value) || "accept";
      var result = { action: action };
      if (action === "accept") {
        result.content = {};
        Object.keys(props).forEach(function (name) {
          var v = box.elements[name].value;
          var t = props[name].type;
          result.content[name] = (t === "number" || t === "integer") ? Number(v) : v;
        });
      }
      box.remove();
      fetch("/mcp", { method: "POST", headers: self.headers(), body: JSON.stringify({ jsonrpc: "2.0", id: m.id, result: result }) })
        .catch(function (err) { self.fail(self.form.dataset.msgFailed + " (" + err.message + ")"); });
    });
    this.notes.parentNode.insertBefore(box, this.notes);
    var first = box.querySelector("input");
    if (first) first.focus();
  };
})();
