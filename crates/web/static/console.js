// The console's placement screen: signatories' boxes dragged (or, from the keyboard, pressed)
// onto rendered pages, moved and removed; on going to the review, each box becomes a hidden field
// `signatory:document:page:left:top:width:height:kind:required:label` in points from the
// page's top-left corner (kind: signature, or a field filled in with it).
// The page works without this script: signatures then go below an anchor text or into a
// default corner.
"use strict";

(() => {
  const form = document.getElementById("place-form");
  if (!form) return;
  const sheets = Array.from(document.querySelectorAll(".sheet"));
  let dragged = null; // { signatory, label } from the palette, or { box } being moved

  const pointsOf = (sheet) => ({ width: Number(sheet.dataset.width), height: Number(sheet.dataset.height) });

  // What the chips place: a signature box, or a field filled in with the signature.
  const kindPicker = document.getElementById("palette-kind");
  if (kindPicker) kindPicker.hidden = false;
  const kindSelect = document.getElementById("place_kind");
  const labelInput = document.getElementById("place_label");
  const requiredInput = document.getElementById("place_required");
  const KIND_NAMES = { signature: "Signature", initials: "Initials", date: "Date", name: "Name", email: "E-mail", text: "Text", checkbox: "Checkbox" };
  // Width and height in points; a signature box takes the sheet's own size.
  const KIND_SIZES = { initials: [60, 30], date: [100, 20], name: [150, 20], email: [170, 20], text: [170, 20], checkbox: [14, 14] };
  const chosenKind = () => {
    const kind = kindSelect ? kindSelect.value : "signature";
    const input = kind === "text" || kind === "checkbox";
    return {
      kind,
      label: input && labelInput ? labelInput.value.trim().slice(0, 100) : "",
      required: input && requiredInput ? requiredInput.checked : false,
    };
  };
  const sizeOf = (sheet, kind) => KIND_SIZES[kind] || [Number(sheet.dataset.boxWidth), Number(sheet.dataset.boxHeight)];

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

  function newBox(sheet, signatory, label, x, y, field, size) {
    const box = document.createElement("div");
    const [w, h] = size || sizeOf(sheet, field.kind);
    const name = field.label || KIND_NAMES[field.kind] || "Signature";
    const what = `${name} of ${label}`;
    box.className = `placed signer-${signatory} kind-${field.kind}`;
    box.tabIndex = 0;
    box.draggable = true;
    box.setAttribute("role", "group");
    box.setAttribute("aria-label", `${what} box, page ${sheet.dataset.page}`);
    box.title = what;
    Object.assign(box.dataset, { signatory, w: String(w), h: String(h), kind: field.kind, label: field.label, required: field.required ? "1" : "0" });
    box.textContent = field.kind === "checkbox" ? "" : (field.kind === "signature" ? label : name);
    const remove = document.createElement("button");
    remove.type = "button";
    remove.textContent = "×";
    remove.setAttribute("aria-label", `Remove the ${what} box`);
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
    const label = chip.dataset.label || chip.textContent.replace(/^Box of /, "");
    chip.addEventListener("dragstart", (event) => {
      dragged = { signatory: chip.dataset.signatory, label, field: chosenKind() };
      event.dataTransfer.setData("text/plain", "signature");
      event.dataTransfer.effectAllowed = "copy";
    });
    // From the keyboard (or a tap): the last page of the first document, near its foot.
    chip.addEventListener("click", () => {
      const firstDocument = sheets.filter((s) => s.dataset.document === "0");
      const sheet = firstDocument[firstDocument.length - 1];
      if (!sheet) return;
      const box = newBox(sheet, chip.dataset.signatory, label, 0.1 + 0.3 * ((Number(chip.dataset.signatory) - 1) % 3), 0.82, chosenKind());
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
        const [bw, bh] = sizeOf(sheet, dragged.field.kind);
        newBox(sheet, dragged.signatory, dragged.label, x - bw / width / 2, y - bh / height / 2, dragged.field);
      }
      dragged = null;
    });
  }
  document.addEventListener("dragend", () => { dragged = null; });

  // Boxes placed before (back from the review, or a refused form) are drawn again; on
  // submitting they are written back as fields like the others.
  for (const input of form.querySelectorAll("input[name=field]")) {
    const parts = input.value.split(":");
    const [signatory, documentIndex, pageNumber, left, top, w, h] = parts;
    const sheet = sheets.find((s) => s.dataset.document === documentIndex && s.dataset.page === pageNumber);
    const chip = Array.from(document.querySelectorAll(".chip")).find((c) => c.dataset.signatory === signatory);
    if (!sheet || !chip) continue;
    const { width, height } = pointsOf(sheet);
    const field = { kind: parts[7] || "signature", required: parts[8] === "1", label: parts.slice(9).join(":") };
    const label = chip.dataset.label || chip.textContent.replace(/^Box of /, "");
    newBox(sheet, signatory, label, Number(left) / width, Number(top) / height, field, [Number(w), Number(h)]);
    input.remove();
  }

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
        round(Number(box.dataset.x) * width), round(Number(box.dataset.y) * height), box.dataset.w, box.dataset.h,
        box.dataset.kind, box.dataset.required, box.dataset.label].join(":");
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

// The send form: "Add another signer" adds a row in place (a copy of the last row, emptied and
// numbered next) instead of following its link, which asks the server for a longer form.
(() => {
  const more = document.getElementById("add-signer");
  if (!more) return;
  const max = Number(more.dataset.max) || 50;
  more.addEventListener("click", (event) => {
    const rows = more.parentElement.querySelectorAll(".signer");
    const last = rows[rows.length - 1];
    if (!last) return;
    event.preventDefault();
    const from = Number(last.querySelector("input").id.match(/^s(\d+)_/)[1]);
    const next = from + 1;
    const row = last.cloneNode(true);
    const renumber = (value) => value.replace(new RegExp(`^s${from}(_|-)`), `s${next}$1`);
    for (const element of row.querySelectorAll("[id], [name], [for], [aria-labelledby]")) {
      for (const attribute of ["id", "name", "for", "aria-labelledby"]) {
        if (element.hasAttribute(attribute)) element.setAttribute(attribute, renumber(element.getAttribute(attribute)));
      }
    }
    row.setAttribute("aria-labelledby", `s${next}-legend`);
    const legend = row.querySelector(".signer-number");
    legend.id = `s${next}-legend`;
    legend.textContent = legend.textContent.replace(String(from), String(next));
    for (const input of row.querySelectorAll("input")) input.value = input.id.endsWith("_order") ? String(next) : "";
    for (const select of row.querySelectorAll("select")) select.selectedIndex = 0;
    last.after(row);
    row.querySelector("input").focus();
    if (rows.length + 1 >= max) more.hidden = true;
  });
})();

// A signer's link shown to copy: the button copies it (without a script, the link is selected
// and copied by hand).
(() => {
  for (const button of document.querySelectorAll("button[data-copy]")) {
    const field = document.getElementById(button.dataset.copy);
    if (!field || !navigator.clipboard) continue;
    button.hidden = false;
    const label = button.textContent;
    button.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(field.value);
        button.textContent = button.dataset.copied || label;
      } catch (_) {
        field.select();
      }
    });
  }
})();
