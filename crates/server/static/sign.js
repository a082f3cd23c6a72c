// Progressive enhancement for the signer page: the typed-name form works without this file.
(function () {
  "use strict";
  var drawForm = document.getElementById("draw-form");
  if (drawForm) {
    drawForm.hidden = false;
    var pad = document.getElementById("pad");
    var ctx = pad.getContext("2d");
    var drawing = false;
    var inked = false;
    ctx.lineWidth = 3;
    ctx.lineCap = "round";
    ctx.strokeStyle = "#14213d";
    function point(e) {
      var r = pad.getBoundingClientRect();
      var t = e.touches ? e.touches[0] : e;
      return { x: (t.clientX - r.left) * (pad.width / r.width), y: (t.clientY - r.top) * (pad.height / r.height) };
    }
    function start(e) { drawing = true; var p = point(e); ctx.beginPath(); ctx.moveTo(p.x, p.y); e.preventDefault(); }
    function move(e) {
      if (!drawing) return;
      var p = point(e);
      ctx.lineTo(p.x, p.y);
      ctx.stroke();
      inked = true;
      e.preventDefault();
    }
    function end() { drawing = false; }
    pad.addEventListener("mousedown", start);
    pad.addEventListener("mousemove", move);
    window.addEventListener("mouseup", end);
    pad.addEventListener("touchstart", start, { passive: false });
    pad.addEventListener("touchmove", move, { passive: false });
    pad.addEventListener("touchend", end);
    document.getElementById("clear-pad").addEventListener("click", function () {
      ctx.clearRect(0, 0, pad.width, pad.height);
      inked = false;
    });
    drawForm.addEventListener("submit", function (e) {
      if (!inked) { e.preventDefault(); alert("Please draw your signature first."); return; }
      document.getElementById("drawn-image").value = pad.toDataURL("image/png");
    });
  }
})();
