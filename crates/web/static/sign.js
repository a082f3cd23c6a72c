// Progressive enhancement for the signer page: the typed-name form works without this file.
(function () {
  "use strict";
  // The workflow page counts as viewed only when a browser shows it (scanners that fetch the
  // link run no script); the server records it once.
  var viewed = document.getElementById("viewed");
  if (viewed && window.fetch) {
    fetch(viewed.getAttribute("data-url"), { method: "POST", credentials: "same-origin" }).catch(function () {});
  }
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

    document.getElementById("clear-pad").addEventListener("click", function () {
      ctx.clearRect(0, 0, pad.width, pad.height);
      inked = false;
    });
    drawForm.addEventListener("submit", function (e) {
      if (!inked) {
        e.preventDefault();
        message.textContent = "Please draw your signature in the box first.";
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
        if (button.textContent === "Sign") button.textContent = "Signing\u2026";
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
      if (busy[j].textContent === "Signing\u2026") busy[j].textContent = "Sign";
    }
  });
})();
