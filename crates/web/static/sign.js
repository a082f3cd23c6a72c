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
  // The fields the signer fills in belong to the page's first form; any other signing form
  // sent takes a copy of them (the server checks them again).
  var fieldInputs = function () {
    var section = document.getElementById("signer-fields");
    return section ? Array.prototype.slice.call(section.querySelectorAll("input[name^='field']")) : [];
  };
  var fieldValues = function () {
    var values = {};
    fieldInputs().forEach(function (input) {
      if (input.type === "checkbox") { if (input.checked) values[input.name.slice(5)] = "on"; }
      else values[input.name.slice(5)] = input.value;
    });
    return values;
  };
  Array.prototype.forEach.call(document.querySelectorAll("form[action$='/sign']"), function (form) {
    form.addEventListener("submit", function () {
      Array.prototype.forEach.call(form.querySelectorAll("input[data-field-copy]"), function (old) { old.remove(); });
      fieldInputs().forEach(function (input) {
        if (input.form === form || (input.type === "checkbox" && !input.checked)) return;
        var copy = document.createElement("input");
        copy.type = "hidden";
        copy.name = input.name;
        copy.value = input.type === "checkbox" ? "on" : input.value;
        copy.setAttribute("data-field-copy", "");
        form.appendChild(copy);
      });
    });
  });
  var drawForm = document.getElementById("draw-form");
  if (drawForm) {
    drawForm.hidden = false;
    var pad = document.getElementById("pad");
    var ctx = pad.getContext("2d");
    var drawing = null; // the pointer drawing now
    var inked = false;
    ctx.lineWidth = 3;
    ctx.lineCap = "round";
    ctx.lineJoin = "round";
    ctx.strokeStyle = "#14213d";
    var point = function (e) {
      var r = pad.getBoundingClientRect();
      return { x: (e.clientX - r.left) * (pad.width / r.width), y: (e.clientY - r.top) * (pad.height / r.height) };
    };
    // Pointer events: mouse, finger and pen alike. The pad keeps the pointer while a stroke
    // lasts, so a stroke that leaves the pad does not get stuck or select the page's text.
    pad.addEventListener("pointerdown", function (e) {
      if (drawing !== null || (e.pointerType === "mouse" && e.button !== 0)) return;
      drawing = e.pointerId;
      if (pad.setPointerCapture) pad.setPointerCapture(e.pointerId);
      var p = point(e);
      ctx.beginPath();
      ctx.moveTo(p.x, p.y);
      e.preventDefault();
    });
    pad.addEventListener("pointermove", function (e) {
      if (e.pointerId !== drawing) return;
      var p = point(e);
      ctx.lineTo(p.x, p.y);
      ctx.stroke();
      inked = true;
      e.preventDefault();
    });
    var end = function (e) {
      if (e.pointerId === drawing) drawing = null;
    };
    pad.addEventListener("pointerup", end);
    pad.addEventListener("pointercancel", end);
    pad.addEventListener("lostpointercapture", end);

    var message = document.createElement("p");
    message.className = "error";
    message.id = "draw-error";
    message.setAttribute("role", "alert");
    message.hidden = true;
    pad.insertAdjacentElement("afterend", message);
    pad.setAttribute("aria-describedby", "draw-error");

    // A signature pad through the signer utility: its strokes are drawn onto the canvas. When
    // the pad is the only way offered, the canvas does not take the mouse, and a missing pad
    // is error 117, which the signer may give up with.
    var padTake = document.getElementById("pad-take");
    var padOnly = drawForm.getAttribute("data-pad-only") === "true";
    if (padOnly) pad.style.pointerEvents = "none";
    if (padTake && window.fetch) {
      var padStatus = document.getElementById("pad-status");
      var noPad = function () {
        padStatus.textContent = "No signature pad is connected.";
        var giveUpPad = document.getElementById("pad-give-up");
        if (padOnly && giveUpPad) giveUpPad.hidden = false;
      };
      findBridge(function (url) {
        bridgeFetch(url + "/pad").then(function (r) { return r.json(); }).then(function (p) {
          if (!p || !p.connected) return noPad();
          padStatus.textContent = "Signature pad connected: " + p.model + ". Sign on the pad, then take the signature.";
          padTake.hidden = false;
          padTake.addEventListener("click", function () {
            bridgeFetch(url + "/pad/signature").then(function (r) { return r.json(); }).then(function (sig) {
              var sx = pad.width / (sig.width || pad.width), sy = pad.height / (sig.height || pad.height);
              ctx.clearRect(0, 0, pad.width, pad.height);
              (sig.strokes || []).forEach(function (stroke) {
                ctx.beginPath();
                stroke.forEach(function (pt, i) {
                  if (i === 0) ctx.moveTo(pt[0] * sx, pt[1] * sy); else ctx.lineTo(pt[0] * sx, pt[1] * sy);
                });
                ctx.stroke();
              });
              inked = (sig.strokes || []).length > 0;
            }).catch(noPad);
          });
        }).catch(noPad);
      }, noPad);
    }

    document.getElementById("clear-pad").addEventListener("click", function () {
      ctx.clearRect(0, 0, pad.width, pad.height);
      inked = false;
    });
    drawForm.addEventListener("submit", function (e) {
      if (!inked) {
        e.preventDefault();
        // The page's words, in its language (the form carries them).
        message.textContent = drawForm.dataset.drawFirst || "Please draw your signature in the box first.";
        message.hidden = false;
        return;
      }
      message.hidden = true;
      document.getElementById("drawn-image").value = pad.toDataURL("image/png");
    });
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
    var MESSAGES = {
      110: "The Signet signer utility is not installed on this computer. Install it, then reload this page.",
      111: "The Signet signer utility is not running. Start it, then reload this page.",
      112: "Another program answers on the signer utility's port, or the utility does not allow this site. Check its settings, then reload this page.",
      113: "The signer utility on this computer is outdated. Update it, then reload this page."
    };
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
          status.textContent = "No signing certificate was found. Insert your token, then reload this page.";
          return;
        }
        certificates.forEach(function (c, i) {
          var option = document.createElement("option");
          option.value = String(i);
          option.textContent = c.name;
          select.appendChild(option);
        });
        status.textContent = "Choose your certificate and enter the token's PIN.";
        choose.hidden = false;
      }).catch(function () { showError("The signer utility did not answer."); });
    };
    document.getElementById("token-sign").addEventListener("click", function () {
      errorBox.hidden = true;
      var chosen = certificates[Number(select.value)];
      if (!chosen) return;
      if (!pin.value) { showError("Please enter the token's PIN."); return; }
      var button = this;
      button.disabled = true;
      fetch(base + "/token/prepare", {
        method: "POST", credentials: "same-origin", headers: { "content-type": "application/json" },
        body: JSON.stringify({ certificate: chosen.certificate, fields: fieldValues() })
      }).then(function (r) {
        return r.json().then(function (body) {
          if (!r.ok) throw new Error(body.error || "The document could not be prepared.");
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
              throw new Error(body.error === "wrong_pin" ? "The PIN is wrong." +
                (body.pinTries === "final" ? " One more wrong PIN locks the token." :
                  body.pinTries === "low" ? " Too many wrong PINs lock the token." : "") :
                body.error === "locked" ? "The token is locked after too many wrong PINs. Unlock it with " +
                  "the token's own tool (with its SO PIN or PUK), or ask your certificate provider to unlock it." :
                (body.message || "The token did not sign."));
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
