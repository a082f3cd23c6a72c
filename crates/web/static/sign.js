// Progressive enhancement for the signer page: the typed-name form works without this file.
(function () {
  "use strict";
  // The Signet signer utility (signet-bridge) on this computer: its default port and the next
  // three. `found(url)` with the first that answers as signet-bridge of a recent enough
  // protocol; otherwise `missing(code)`: 110 never reached from this browser (not installed),
  // 111 reached before (not running), 112 something else or a utility that does not allow
  // this site, 113 too old.
  var BRIDGE_PORTS = [45763, 45764, 45765, 45766];
  var BRIDGE_PROTOCOL = 1;
  var bridgeFetch = function (url, options) {
    var controller = new AbortController();
    var timer = setTimeout(function () { controller.abort(); }, 3000);
    options = options || {};
    options.signal = controller.signal;
    return fetch(url, options).finally(function () { clearTimeout(timer); });
  };
  var findBridge = function (found, missing) {
    var probe = function (i, sawOther) {
      if (i >= BRIDGE_PORTS.length) {
        if (sawOther) return missing(112);
        var seen = false;
        try { seen = window.localStorage.getItem("signet-bridge-seen") === "1"; } catch (e) { seen = false; }
        return missing(seen ? 111 : 110);
      }
      var url = "https://127.0.0.1:" + BRIDGE_PORTS[i];
      bridgeFetch(url + "/version").then(function (r) {
        if (!r.ok) return probe(i + 1, true);
        return r.json().then(function (v) {
          if (!v || v.name !== "signet-bridge") return probe(i + 1, true);
          try { window.localStorage.setItem("signet-bridge-seen", "1"); } catch (e) { /* private mode */ }
          if (!(v.protocol >= BRIDGE_PROTOCOL)) return missing(113);
          found(url);
        });
      }).catch(function () { probe(i + 1, sawOther); });
    };
    probe(0, false);
  };
  // The workflow page counts as viewed only when a browser shows it (scanners that fetch the
  // link run no script); the server records it once.
  var viewed = document.getElementById("viewed");
  if (viewed && window.fetch) {
    fetch(viewed.getAttribute("data-url"), { method: "POST", credentials: "same-origin" }).catch(function () {});
  }
  // The fields the signer fills in (on the pages), for the token signature's request.
  var fieldValues = function () {
    var values = {};
    document.querySelectorAll("input[name^='field']").forEach(function (input) {
      if (input.type === "checkbox") { if (input.checked) values[input.name.slice(5)] = "on"; }
      else values[input.name.slice(5)] = input.value;
    });
    return values;
  };
  // A drawing pad on a canvas: pointer events (mouse, finger and pen alike). The pad keeps
  // the pointer while a stroke lasts, so a stroke that leaves it does not get stuck or select
  // the page's text. `onInk` is told after each stroke.
  var makePad = function (canvas, onInk) {
    var ctx = canvas.getContext("2d");
    var drawing = null; // the pointer drawing now
    var inked = false;
    var pen = function () {
      ctx.lineWidth = 3;
      ctx.lineCap = "round";
      ctx.lineJoin = "round";
      ctx.strokeStyle = "#14213d";
    };
    pen();
    var point = function (e) {
      var r = canvas.getBoundingClientRect();
      return { x: (e.clientX - r.left) * (canvas.width / r.width), y: (e.clientY - r.top) * (canvas.height / r.height) };
    };
    canvas.addEventListener("pointerdown", function (e) {
      if (drawing !== null || (e.pointerType === "mouse" && e.button !== 0)) return;
      drawing = e.pointerId;
      if (canvas.setPointerCapture) canvas.setPointerCapture(e.pointerId);
      var p = point(e);
      ctx.beginPath();
      ctx.moveTo(p.x, p.y);
      e.preventDefault();
    });
    canvas.addEventListener("pointermove", function (e) {
      if (e.pointerId !== drawing) return;
      var p = point(e);
      ctx.lineTo(p.x, p.y);
      ctx.stroke();
      inked = true;
      e.preventDefault();
    });
    var end = function (e) {
      if (e.pointerId !== drawing) return;
      drawing = null;
      if (onInk) onInk();
    };
    canvas.addEventListener("pointerup", end);
    canvas.addEventListener("pointercancel", end);
    canvas.addEventListener("lostpointercapture", end);
    return {
      inked: function () { return inked; },
      clear: function () { ctx.clearRect(0, 0, canvas.width, canvas.height); inked = false; },
      dataUrl: function () { return canvas.toDataURL("image/png"); },
      strokes: function (list, width, height) {
        var sx = canvas.width / (width || canvas.width), sy = canvas.height / (height || canvas.height);
        ctx.clearRect(0, 0, canvas.width, canvas.height);
        list.forEach(function (stroke) {
          ctx.beginPath();
          stroke.forEach(function (pt, i) {
            if (i === 0) ctx.moveTo(pt[0] * sx, pt[1] * sy); else ctx.lineTo(pt[0] * sx, pt[1] * sy);
          });
          ctx.stroke();
        });
        inked = list.length > 0;
      },
      // A drawing the server kept after a refusal, drawn again.
      load: function (dataUrl) {
        var image = new Image();
        image.onload = function () {
          ctx.drawImage(image, 0, 0, canvas.width, canvas.height);
          inked = true;
          pen();
          if (onInk) onInk();
        };
        image.src = dataUrl;
      }
    };
  };
  var errorAfter = function (element) {
    var message = document.createElement("p");
    message.className = "error";
    message.id = element.id + "-error";
    message.setAttribute("role", "alert");
    message.hidden = true;
    element.insertAdjacentElement("afterend", message);
    element.setAttribute("aria-describedby", message.id);
    return message;
  };
  var drawForm = document.getElementById("draw-form");
  if (drawForm) {
    drawForm.hidden = false;
    var canvas = document.getElementById("pad");
    var pad = makePad(canvas);
    var message = errorAfter(canvas);

    // A signature pad through the signer utility: its strokes are drawn onto the canvas. When
    // the pad is the only way offered, the canvas does not take the mouse, and a missing pad
    // is error 117, which the signer may give up with.
    var padTake = document.getElementById("pad-take");
    var padOnly = drawForm.getAttribute("data-pad-only") === "true";
    if (padOnly) canvas.style.pointerEvents = "none";
    if (padTake && window.fetch) {
      var padStatus = document.getElementById("pad-status");
      var noPad = function () {
        padStatus.textContent = padStatus.dataset.noPad;
        var giveUpPad = document.getElementById("pad-give-up");
        if (padOnly && giveUpPad) giveUpPad.hidden = false;
      };
      findBridge(function (url) {
        bridgeFetch(url + "/pad").then(function (r) { return r.json(); }).then(function (p) {
          if (!p || !p.connected) return noPad();
          padStatus.textContent = padStatus.dataset.connected.replace("{model}", p.model);
          padTake.hidden = false;
          padTake.addEventListener("click", function () {
            bridgeFetch(url + "/pad/signature").then(function (r) { return r.json(); }).then(function (sig) {
              pad.strokes(sig.strokes || [], sig.width, sig.height);
            }).catch(noPad);
          });
        }).catch(noPad);
      }, noPad);
    }

    document.getElementById("clear-pad").addEventListener("click", pad.clear);
    drawForm.addEventListener("submit", function (e) {
      if (!pad.inked()) {
        e.preventDefault();
        // The page's words, in its language (the form carries them).
        message.textContent = drawForm.dataset.drawFirst || "Please draw your signature in the box first.";
        message.hidden = false;
        return;
      }
      message.hidden = true;
      document.getElementById("drawn-image").value = pad.dataUrl();
    });
  }

  // The guided workflow page: the places to act drawn over the page images, one signature
  // control (type, draw or upload: adopted once and shown in every place that asks for it),
  // and a guide that leads from one unfinished place to the next. Without this script the
  // page still works: the places are listed under each page and every method is shown.
  var signForm = document.getElementById("sign-form");
  var spots = Array.prototype.slice.call(document.querySelectorAll(".spot"));
  if (spots.length || signForm) document.body.classList.add("guided");
  spots.forEach(function (spot) {
    var box = (spot.getAttribute("data-box") || "").split(" ").map(Number);
    if (box.length !== 4 || !spot.closest(".sheet.shown")) return;
    spot.style.left = box[0] + "%";
    spot.style.top = box[1] + "%";
    spot.style.width = box[2] + "%";
    spot.style.height = box[3] + "%";
  });
  Array.prototype.forEach.call(document.querySelectorAll(".sheet[data-ratio]"), function (sheet) {
    var ratio = Number(sheet.getAttribute("data-ratio"));
    if (ratio > 0) sheet.style.aspectRatio = String(ratio);
  });
  // What the signer adopted: { text, plain } for a typed name, { image } for a drawing or an
  // uploaded image; null while there is none.
  var adopted = null;
  var showAdopted = function () {
    document.querySelectorAll(".spot.kind-signature").forEach(function (spot) {
      spot.textContent = "";
      spot.classList.toggle("done", adopted !== null);
      if (!adopted) {
        spot.textContent = spot.getAttribute("data-idle") || spot.textContent;
        spot.setAttribute("aria-label", spot.textContent);
        return;
      }
      if (adopted.image) {
        var img = document.createElement("img");
        img.src = adopted.image;
        img.alt = "";
        spot.appendChild(img);
      } else {
        var name = document.createElement("span");
        name.className = adopted.plain ? "" : "handwriting";
        name.textContent = adopted.text;
        spot.appendChild(name);
      }
      // Its name says what it is and holds what it shows (WCAG 2.5.3).
      var idle = spot.getAttribute("data-idle");
      spot.setAttribute("aria-label", adopted.image ? idle : idle + ": " + adopted.text);
    });
  };
  // A place keeps its name ("Sign here") for screen readers when it shows the signature.
  document.querySelectorAll(".spot.kind-signature").forEach(function (spot) {
    spot.setAttribute("data-idle", spot.textContent);
    spot.setAttribute("aria-label", spot.textContent);
  });
  var update = function () {};
  if (signForm) {
    Array.prototype.forEach.call(signForm.querySelectorAll(".needs-script"), function (e) { e.hidden = false; });
    var modes = Array.prototype.slice.call(signForm.querySelectorAll("input[name=mode]"));
    var panels = Array.prototype.slice.call(signForm.querySelectorAll(".method"));
    var typedName = document.getElementById("typedName");
    var fileInput = document.getElementById("signature-file");
    var kept = document.getElementById("kept-image");
    var uploaded = kept ? kept.value : "";
    var drawn = document.getElementById("drawn-image");
    var canvas = document.getElementById("pad");
    var pad = makePad(canvas, function () { adopt(); });
    var padError = errorAfter(canvas);
    var mode = function () {
      var chosen = modes.filter(function (m) { return m.checked; })[0];
      return chosen ? chosen.value : "typed";
    };
    var adopt = function () {
      var current = mode();
      if (current === "typed") {
        var text = typedName.value.trim();
        var font = signForm.querySelector("input[name=font]:checked");
        adopted = text ? { text: text, plain: font && font.value === "plain" } : null;
      } else if (current === "drawn") {
        adopted = pad.inked() ? { image: pad.dataUrl() } : null;
      } else {
        adopted = uploaded ? { image: uploaded } : null;
      }
      showAdopted();
      update();
    };
    // Only the chosen method's panel shows, and only its inputs are sent.
    var showMethod = function () {
      var current = mode();
      panels.forEach(function (panel) {
        var on = panel.getAttribute("data-mode") === current;
        panel.hidden = !on;
        panel.querySelectorAll("input, button").forEach(function (input) { input.disabled = !on; });
      });
      adopt();
    };
    modes.forEach(function (m) { m.addEventListener("change", showMethod); });
    typedName.addEventListener("input", adopt);
    signForm.querySelectorAll("input[name=font]").forEach(function (f) { f.addEventListener("change", adopt); });
    document.getElementById("clear-pad").addEventListener("click", function () { pad.clear(); adopt(); });
    if (drawn.value) pad.load(drawn.value);
    fileInput.addEventListener("change", function () {
      var file = fileInput.files && fileInput.files[0];
      if (!file) { uploaded = kept ? kept.value : ""; adopt(); return; }
      var reader = new FileReader();
      reader.onload = function () { uploaded = String(reader.result); if (kept) kept.disabled = true; adopt(); };
      reader.readAsDataURL(file);
    });
    signForm.addEventListener("submit", function (e) {
      if (mode() === "drawn") {
        if (!pad.inked()) {
          e.preventDefault();
          padError.textContent = signForm.dataset.drawFirst;
          padError.hidden = false;
          canvas.focus();
          return;
        }
        padError.hidden = true;
        drawn.value = pad.dataUrl();
      }
    });
    showMethod();
  }
  // The guide: the places the signer acts on, in reading order; "Next" goes to the first one
  // not done after the last one visited (an optional field is done once visited).
  var guide = document.getElementById("guide");
  var steps = spots.filter(function (s) { return s.classList.contains("step"); });
  if (guide && steps.length) {
    var status = document.getElementById("guide-status");
    var next = document.getElementById("guide-next");
    var visited = [];
    var at = -1;
    var inputOf = function (step) { return step.querySelector("input"); };
    var done = function (step) {
      if (step.classList.contains("kind-signature")) return adopted !== null;
      var input = inputOf(step);
      if (!input) return true;
      if (input.type === "checkbox") return input.checked || (!input.required && visited.indexOf(step) >= 0);
      return input.value.trim() !== "" || (!input.required && visited.indexOf(step) >= 0);
    };
    var copies = function (input) {
      document.querySelectorAll(".spot.again[data-copy-of='" + input.id + "']").forEach(function (copy) {
        copy.textContent = input.type === "checkbox" ? (input.checked ? "\u2713" : "") : input.value;
      });
    };
    update = function () {
      var left = steps.filter(function (s) { return !done(s); }).length;
      status.textContent = left
        ? guide.dataset.left.replace("{left}", String(left)).replace("{total}", String(steps.length))
        : guide.dataset.ready;
      steps.forEach(function (s) { s.classList.toggle("done", done(s)); });
    };
    var go = function (step) {
      at = steps.indexOf(step);
      step.scrollIntoView({ block: "center", behavior: "smooth" });
      var input = inputOf(step);
      if (input) input.focus({ preventScroll: true });
      else if (step.classList.contains("kind-signature")) step.focus({ preventScroll: true });
    };
    steps.forEach(function (step) {
      var input = inputOf(step);
      if (!input) return;
      input.addEventListener("focus", function () {
        at = steps.indexOf(step);
        if (visited.indexOf(step) < 0) visited.push(step);
      });
      input.addEventListener("input", function () { copies(input); update(); });
      input.addEventListener("change", function () { copies(input); update(); });
      copies(input);
    });
    next.addEventListener("click", function () {
      for (var i = 1; i <= steps.length; i++) {
        var step = steps[(at + i) % steps.length];
        if (!done(step)) return go(step);
      }
      // Everything done: on to the consent and the Finish button.
      var consent = document.getElementById("consent");
      if (consent) {
        consent.scrollIntoView({ block: "center", behavior: "smooth" });
        consent.focus({ preventScroll: true });
      }
    });
    guide.hidden = false;
    update();
  }

  // One submission per page: a second press of Sign (or Cancel) while the first is on its way
  // would replace it in the browser, and the answer the signer then sees would be "already
  // signed" instead of the result the integrator needs.
  var submitting = false;
  var forms = document.querySelectorAll("form");
  for (var i = 0; i < forms.length; i++) {
    forms[i].addEventListener("submit", function (e) {
      if (e.defaultPrevented) return;
      if (submitting) {
        e.preventDefault();
        return;
      }
      submitting = true;
      document.body.setAttribute("aria-busy", "true");
      var button = e.submitter || this.querySelector("button[type=submit]");
      if (button) {
        button.setAttribute("aria-disabled", "true");
        button.classList.add("busy");
        // A signing button says it is at work, in the page's language (`data-busy`).
        if (button.dataset.busy) {
          button.dataset.idle = button.textContent;
          button.textContent = button.dataset.busy;
        }
      }
    });
  }
  // Back to this page from the browser's history: it can be used again.
  window.addEventListener("pageshow", function (e) {
    if (!e.persisted) return;
    submitting = false;
    document.body.removeAttribute("aria-busy");
    var busy = document.querySelectorAll("button.busy");
    for (var j = 0; j < busy.length; j++) {
      busy[j].removeAttribute("aria-disabled");
      busy[j].classList.remove("busy");
      if (busy[j].dataset.idle) busy[j].textContent = busy[j].dataset.idle;
    }
  });
  // Signing with the signer's crypto token through the Signet signer utility on this
  // computer (signet-bridge): find it on its ports, list the token's certificates, have the
  // server prepare the document for the chosen one, have the token sign with the PIN, and post
  // the signature. What cannot be used is told apart and may be given up with its code:
  // 110 never seen in this browser (not installed), 111 seen before but not answering (not
  // running), 112 something else on its ports or this site not allowed, 113 too old.
  var tokenBox = document.getElementById("token-form");
  if (tokenBox && window.fetch) {
    tokenBox.hidden = false;
    var base = tokenBox.getAttribute("data-base");
    var status = document.getElementById("token-status");
    var choose = document.getElementById("token-choose");
    var select = document.getElementById("token-certificate");
    var pin = document.getElementById("token-pin");
    var errorBox = document.getElementById("token-error");
    var giveUp = document.getElementById("token-give-up");
    var bridge = null;
    var certificates = [];
    // The page's words, in its language (data attributes of the form).
    var said = tokenBox.dataset;
    var MESSAGES = { 110: said.m110, 111: said.m111, 112: said.m112, 113: said.m113 };
    var showError = function (text) { errorBox.textContent = text; errorBox.hidden = false; };
    var fail = function (code) {
      status.textContent = MESSAGES[code];
      // The gateway page can end the transaction with the code; a workflow page only tells.
      if (giveUp) {
        document.getElementById("token-give-up-code").value = String(code);
        giveUp.hidden = false;
      }
    };
    var withTimeout = bridgeFetch;
    var listCertificates = function () {
      withTimeout(bridge + "/tokens").then(function (r) { return r.json(); }).then(function (t) {
        var tokens = (t && t.tokens) || [];
        return Promise.all(tokens.map(function (token) {
          return withTimeout(bridge + "/tokens/" + encodeURIComponent(token.serial) + "/certificates")
            .then(function (r) { return r.json(); })
            .then(function (c) {
              ((c && c.certificates) || []).forEach(function (cert) {
                certificates.push({ serial: token.serial, keyId: cert.keyId, certificate: cert.certificate,
                  name: (cert.subject || cert.label) + " (" + (token.label || token.serial) + ")" });
              });
            });
        }));
      }).then(function () {
        if (certificates.length === 0) {
          status.textContent = said.noCertificate;
          return;
        }
        certificates.forEach(function (c, i) {
          var option = document.createElement("option");
          option.value = String(i);
          option.textContent = c.name;
          select.appendChild(option);
        });
        status.textContent = said.choose;
        choose.hidden = false;
      }).catch(function () { showError(said.noAnswer); });
    };
    document.getElementById("token-sign").addEventListener("click", function () {
      errorBox.hidden = true;
      var chosen = certificates[Number(select.value)];
      if (!chosen) return;
      if (!pin.value) { showError(said.needPin); return; }
      var button = this;
      button.disabled = true;
      fetch(base + "/token/prepare", {
        method: "POST", credentials: "same-origin", headers: { "content-type": "application/json" },
        body: JSON.stringify({ certificate: chosen.certificate, fields: fieldValues() })
      }).then(function (r) {
        return r.json().then(function (body) {
          if (!r.ok) throw new Error(body.error || said.notPrepared);
          return body;
        });
      }).then(function (prepared) {
        return withTimeout(bridge + "/tokens/" + encodeURIComponent(chosen.serial) + "/sign", {
          method: "POST", headers: { "content-type": "application/json" },
          body: JSON.stringify({ keyId: chosen.keyId, pin: pin.value, digests: prepared.hashesToSign })
        }).then(function (r) {
          return r.json().then(function (body) {
            if (!r.ok) {
              // The token's own warning before it locks (pinTries), and how a locked one is
              // unlocked: the signer cannot do it from this page.
              throw new Error(body.error === "wrong_pin" ? said.wrongPin +
                (body.pinTries === "final" ? " " + said.finalTry :
                  body.pinTries === "low" ? " " + said.lowTries : "") :
                body.error === "locked" ? said.locked : (body.message || said.notSigned));
            }
            document.getElementById("token-complete-id").value = prepared.id;
            document.getElementById("token-complete-signatures").value = body.signatures.join(",");
            pin.value = "";
            document.getElementById("token-complete").submit();
          });
        });
      }).catch(function (e) {
        button.disabled = false;
        showError(e.message);
      });
    });
    findBridge(function (url) { bridge = url; listCertificates(); }, fail);
  }
})();
