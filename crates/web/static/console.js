// The console's placement screen: signatories' boxes dragged (or, from the keyboard, pressed)
// onto rendered pages, moved and removed; on sending, each box becomes a hidden field
// `signatory:document:page:left:top:width:height` in points from the page's top-left corner.
// The page works without this script: signatures then go below an anchor text or into a
// default corner.
"use strict";

(() => {
  const form = document.getElementById("place-form");
  if (!form) return;
  const sheets = Array.from(document.querySelectorAll(".sheet"));
  let dragged = null; // { signatory, label } from the palette, or { box } being moved

  const pointsOf = (sheet) => ({ width: Number(sheet.dataset.width), height: Number(sheet.dataset.height) });

  // A box at (x, y) in fractions of the sheet, kept inside it.
  function place(sheet, box, x, y) {
    const { width, height } = pointsOf(sheet);
    const w = Number(box.dataset.w) / width;
    const h = Number(box.dataset.h) / height;
    const left = Math.min(Math.max(x, 0), 1 - w);
    const top = Math.min(Math.max(y, 0), 1 - h);
    Object.assign(box.dataset, { x: String(left), y: String(top) });
    Object.assign(box.style, { left: `${left * 100}%`, top: `${top * 100}%`, width: `${w * 100}%`, height: `${h * 100}%` });
  }

  function newBox(sheet, signatory, label, x, y) {
    const box = document.createElement("div");
    box.className = `placed signer-${signatory}`;
    box.tabIndex = 0;
    box.draggable = true;
    box.setAttribute("role", "group");
    box.setAttribute("aria-label", `Signature box of ${label}, page ${sheet.dataset.page}`);
    Object.assign(box.dataset, { signatory, w: sheet.dataset.boxWidth, h: sheet.dataset.boxHeight });
    box.textContent = label;
    const remove = document.createElement("button");
    remove.type = "button";
    remove.textContent = "×";
    remove.setAttribute("aria-label", `Remove the signature box of ${label}`);
    remove.addEventListener("click", () => box.remove());
    box.append(remove);
    box.addEventListener("dragstart", (event) => {
      dragged = { box };
      event.dataTransfer.setData("text/plain", "box");
      event.dataTransfer.effectAllowed = "move";
    });
    box.addEventListener("keydown", (event) => {
      const step = event.shiftKey ? 0.05 : 0.01;
      const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
      if (moves[event.key]) {
        event.preventDefault();
        const [dx, dy] = moves[event.key];
        place(box.parentElement, box, Number(box.dataset.x) + dx, Number(box.dataset.y) + dy);
      } else if (event.key === "Delete" || event.key === "Backspace") {
        event.preventDefault();
        box.remove();
      }
    });
    sheet.append(box);
    place(sheet, box, x, y);
    return box;
  }

  for (const chip of document.querySelectorAll(".chip")) {
    const label = chip.dataset.label || chip.textContent.replace(/^Signature of /, "");
    chip.addEventListener("dragstart", (event) => {
      dragged = { signatory: chip.dataset.signatory, label };
      event.dataTransfer.setData("text/plain", "signature");
      event.dataTransfer.effectAllowed = "copy";
    });
    // From the keyboard (or a tap): the last page of the first document, near its foot.
    chip.addEventListener("click", () => {
      const firstDocument = sheets.filter((s) => s.dataset.document === "0");
      const sheet = firstDocument[firstDocument.length - 1];
      if (!sheet) return;
      const box = newBox(sheet, chip.dataset.signatory, label, 0.1 + 0.3 * ((Number(chip.dataset.signatory) - 1) % 3), 0.82);
      box.focus();
    });
  }

  for (const sheet of sheets) {
    sheet.addEventListener("dragover", (event) => {
      if (dragged) {
        event.preventDefault();
        event.dataTransfer.dropEffect = dragged.box ? "move" : "copy";
      }
    });
    sheet.addEventListener("drop", (event) => {
      if (!dragged) return;
      event.preventDefault();
      const rect = sheet.getBoundingClientRect();
      const x = (event.clientX - rect.left) / rect.width;
      const y = (event.clientY - rect.top) / rect.height;
      if (dragged.box) {
        const { width, height } = pointsOf(sheet);
        sheet.append(dragged.box);
        place(sheet, dragged.box, x - Number(dragged.box.dataset.w) / width / 2, y - Number(dragged.box.dataset.h) / height / 2);
      } else {
        const { width, height } = pointsOf(sheet);
        const w = Number(sheet.dataset.boxWidth) / width;
        const h = Number(sheet.dataset.boxHeight) / height;
        newBox(sheet, dragged.signatory, dragged.label, x - w / 2, y - h / 2);
      }
      dragged = null;
    });
  }
  document.addEventListener("dragend", () => { dragged = null; });

  form.addEventListener("submit", () => {
    for (const old of form.querySelectorAll("input[name=field]")) old.remove();
    for (const box of form.querySelectorAll(".placed")) {
      const sheet = box.parentElement;
      const { width, height } = pointsOf(sheet);
      const round = (n) => (Math.round(n * 10) / 10).toString();
      const input = document.createElement("input");
      input.type = "hidden";
      input.name = "field";
      input.value = [box.dataset.signatory, sheet.dataset.document, sheet.dataset.page,
        round(Number(box.dataset.x) * width), round(Number(box.dataset.y) * height), box.dataset.w, box.dataset.h].join(":");
      form.append(input);
    }
  });
})();

// A bulk job's page: its counts, asked for every two seconds until the job has finished.
(() => {
  const job = document.getElementById("job");
  if (!job || !job.hasAttribute("data-poll")) return;
  const show = (progress) => {
    for (const field of job.querySelectorAll("[data-field]")) {
      const value = progress[field.dataset.field];
      if (value !== undefined && field.textContent !== String(value)) field.textContent = String(value);
    }
  };
  const look = async () => {
    try {
      const answer = await fetch(job.dataset.progress, { headers: { accept: "application/json" }, credentials: "same-origin" });
      if (!answer.ok) return;
      const progress = await answer.json();
      show(progress);
      if (progress.finished) return;
    } catch (_) {
      // A network hiccup: look again at the next turn.
    }
    setTimeout(look, 2000);
  };
  setTimeout(look, 1000);
})();
