// The console's placement screen: signatories' boxes dragged (or, from the keyboard, pressed)
// onto rendered pages, moved, resized and removed; on going to the review, each box becomes a
// hidden field `signatory:document:page:left:top:width:height:kind:required:label` in points
// from the page's top-left corner (kind: signature, or a field filled in with it).
// Pointer events throughout (mouse, pen and touch alike): a chip dragged onto a page leaves its
// box where the pointer holds it (the point grabbed on the chip stays under the pointer, within
// the box); a box is moved by dragging it and resized by its corner handle. From the keyboard:
// a pressed chip puts its box in the next free spot of the page in view; a focused box moves
// with the arrow keys (Shift: bigger steps), grows and shrinks with Alt (or Ctrl) and the arrow
// keys, and Delete removes it. The pages load as they are scrolled to, then one by one in the
// background, with "Page 3 of 30" said in a status line.
// The page works without this script: signatures then go below an anchor text or into a
// default corner.
"use strict";

(() => {
  const form = document.getElementById("place-form");
  if (!form) return;
  const sheets = Array.from(document.querySelectorAll(".sheet"));
  const chips = Array.from(document.querySelectorAll(".chip"));
  const words = (document.getElementById("place-words") || {}).dataset || {};
  const fill = (text, values) => (text || "").replace(/\{(\w+)\}/g, (all, key) => (key in values ? String(values[key]) : all));
  // The smallest box the server takes, in points.
  const MIN_POINTS = 10;

  const pointsOf = (sheet) => ({ width: Number(sheet.dataset.width), height: Number(sheet.dataset.height) });

  // What the chips place: a signature box, or a field filled in with the signature.
  const kindPicker = document.getElementById("palette-kind");
  if (kindPicker) kindPicker.hidden = false;
  const kindSelect = document.getElementById("place_kind");
  const labelInput = document.getElementById("place_label");
  const requiredInput = document.getElementById("place_required");
  const shortNames = {};
  if (kindSelect) for (const option of kindSelect.options) shortNames[option.value] = option.dataset.short || option.textContent;
  // Width and height in points; a signature box takes the sheet's own size.
  const KIND_SIZES = { initials: [60, 30], date: [100, 20], name: [150, 20], email: [170, 20], text: [170, 20], checkbox: [14, 14] };
  const inputKind = (kind) => kind === "text" || kind === "checkbox";
  const showLabelControls = () => {
    const shown = kindSelect && inputKind(kindSelect.value);
    for (const element of document.querySelectorAll(".palette-label")) element.hidden = !shown;
  };
  if (kindSelect) kindSelect.addEventListener("change", showLabelControls);
  showLabelControls();
  const chosenKind = () => {
    const kind = kindSelect ? kindSelect.value : "signature";
    return {
      kind,
      label: inputKind(kind) && labelInput ? labelInput.value.trim().slice(0, 100) : "",
      required: inputKind(kind) && requiredInput ? requiredInput.checked : false,
    };
  };
  const sizeOf = (sheet, kind) => KIND_SIZES[kind] || [Number(sheet.dataset.boxWidth), Number(sheet.dataset.boxHeight)];
  const labelOf = (chip) => chip.dataset.label || chip.textContent.trim();

  // Draws a box from its data: x, y in fractions of the sheet, w, h in points, kept inside it.
  function place(sheet, box, x, y) {
    const { width, height } = pointsOf(sheet);
    const w = Math.min(Math.max(Number(box.dataset.w), Math.min(MIN_POINTS, width)), width);
    const h = Math.min(Math.max(Number(box.dataset.h), Math.min(MIN_POINTS, height)), height);
    const left = Math.min(Math.max(x, 0), 1 - w / width);
    const top = Math.min(Math.max(y, 0), 1 - h / height);
    Object.assign(box.dataset, { x: String(left), y: String(top), w: String(w), h: String(h) });
    Object.assign(box.style, {
      left: `${left * 100}%`, top: `${top * 100}%`, width: `${(w / width) * 100}%`, height: `${(h / height) * 100}%`,
    });
  }

  // Changes a box's size (points), its top-left corner staying where it is, kept on its page.
  function resize(box, w, h) {
    const sheet = box.parentElement;
    const { width, height } = pointsOf(sheet);
    const x = Number(box.dataset.x);
    const y = Number(box.dataset.y);
    box.dataset.w = String(Math.round(Math.min(Math.max(w, MIN_POINTS), (1 - x) * width) * 10) / 10);
    box.dataset.h = String(Math.round(Math.min(Math.max(h, MIN_POINTS), (1 - y) * height) * 10) / 10);
    place(sheet, box, x, y);
  }

  // The sheet under a point of the window, if any.
  const sheetAt = (clientX, clientY) =>
    document.elementsFromPoint(clientX, clientY).map((e) => e.closest(".sheet")).find(Boolean) || null;

  function describe(box, sheet) {
    box.setAttribute("aria-label", fill(words.aria || "{box}, page {page}", { box: box.title, page: sheet.dataset.page }));
  }

  function newBox(sheet, signatory, label, x, y, field, size) {
    const box = document.createElement("div");
    const [w, h] = size || sizeOf(sheet, field.kind);
    const name = field.label || shortNames[field.kind] || field.kind;
    const what = fill(words.box || "{what} of {who}", { what: name, who: label });
    box.className = `placed signer-${signatory} kind-${field.kind}`;
    box.tabIndex = 0;
    box.setAttribute("role", "group");
    box.setAttribute("aria-describedby", "place-keys");
    box.title = what;
    Object.assign(box.dataset, { signatory, w: String(w), h: String(h), kind: field.kind, label: field.label, required: field.required ? "1" : "0" });
    const text = document.createElement("span");
    text.className = "placed-text";
    text.textContent = field.kind === "checkbox" ? "" : (field.kind === "signature" ? label : name);
    const remove = document.createElement("button");
    remove.type = "button";
    remove.textContent = "×";
    remove.setAttribute("aria-label", fill(words.remove || "Remove {box}", { box: what }));
    remove.addEventListener("click", () => removeBox(box));
    const handle = document.createElement("span");
    handle.className = "handle";
    handle.setAttribute("aria-hidden", "true");
    handle.title = fill(words.resize || "Resize {box}", { box: what });
    box.append(text, remove, handle);
    box.addEventListener("pointerdown", (event) => grab(event, box, event.target === handle ? "resize" : "move"));
    box.addEventListener("keydown", (event) => keys(event, box));
    sheet.append(box);
    place(sheet, box, x, y);
    describe(box, sheet);
    return box;
  }

  function removeBox(box) {
    const sheet = box.parentElement;
    const chip = chips.find((c) => c.dataset.signatory === box.dataset.signatory);
    const next = box.nextElementSibling && box.nextElementSibling.classList.contains("placed") ? box.nextElementSibling : null;
    box.remove();
    (next || sheet.querySelector(".placed") || chip || form).focus();
  }

  // From the keyboard: arrows move by 1 % of the page (Shift: 5 %); Alt or Ctrl with the arrows
  // resizes (right and down grow, left and up shrink) by 2 points (Shift: 10); Delete removes.
  function keys(event, box) {
    if (event.target !== box) return;
    const arrows = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const arrow = arrows[event.key];
    if (arrow && (event.altKey || event.ctrlKey)) {
      event.preventDefault();
      const step = event.shiftKey ? 10 : 2;
      resize(box, Number(box.dataset.w) + arrow[0] * step, Number(box.dataset.h) + arrow[1] * step);
    } else if (arrow) {
      event.preventDefault();
      const step = event.shiftKey ? 0.05 : 0.01;
      place(box.parentElement, box, Number(box.dataset.x) + arrow[0] * step, Number(box.dataset.y) + arrow[1] * step);
    } else if (event.key === "Delete" || event.key === "Backspace") {
      event.preventDefault();
      removeBox(box);
    }
  }

  // A box grabbed by the pointer: moved with the point grabbed kept under the pointer (onto
  // another page if dropped there), or resized by its handle.
  function grab(event, box, what) {
    if (event.button !== 0 || (event.target.closest("button"))) return;
    event.preventDefault();
    box.focus();
    const start = box.getBoundingClientRect();
    const offset = { x: event.clientX - start.left, y: event.clientY - start.top };
    const edge = { x: start.right - event.clientX, y: start.bottom - event.clientY };
    box.setPointerCapture(event.pointerId);
    box.classList.add("moving");
    // On the window: a box moved onto another page loses the pointer's capture.
    const move = (e) => {
      if (e.pointerId !== event.pointerId) return;
      if (what === "resize") {
        const rect = box.parentElement.getBoundingClientRect();
        const { width, height } = pointsOf(box.parentElement);
        const left = rect.left + Number(box.dataset.x) * rect.width;
        const top = rect.top + Number(box.dataset.y) * rect.height;
        resize(box, ((e.clientX + edge.x - left) / rect.width) * width, ((e.clientY + edge.y - top) / rect.height) * height);
        return;
      }
      const target = sheetAt(e.clientX, e.clientY) || box.parentElement;
      if (target !== box.parentElement) {
        target.append(box);
        describe(box, target);
      }
      const rect = target.getBoundingClientRect();
      place(target, box, (e.clientX - offset.x - rect.left) / rect.width, (e.clientY - offset.y - rect.top) / rect.height);
    };
    const end = (e) => {
      if (e.pointerId !== event.pointerId) return;
      box.classList.remove("moving");
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", end);
      window.removeEventListener("pointercancel", end);
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", end);
    window.addEventListener("pointercancel", end);
  }

  // The sheet most in view (below the palette when it sits above the pages).
  function sheetInView() {
    const palette = document.getElementById("palette");
    const bar = palette ? palette.getBoundingClientRect() : null;
    const top = bar && bar.width < window.innerWidth * 0.6 ? 0 : Math.max(0, bar ? bar.bottom : 0);
    let best = null;
    let shown = 0;
    for (const sheet of sheets) {
      const rect = sheet.getBoundingClientRect();
      const visible = Math.min(rect.bottom, window.innerHeight) - Math.max(rect.top, top);
      if (visible > shown) [best, shown] = [sheet, visible];
    }
    return best || sheets[sheets.length - 1] || null;
  }

  // The first spot on `sheet` where a w × h box (points) overlaps no other box: rows from two
  // thirds down to the foot, then from the top; else a step below and right of the last box.
  function freeSpot(sheet, w, h) {
    const { width, height } = pointsOf(sheet);
    const gap = 6;
    const taken = Array.from(sheet.querySelectorAll(".placed")).map((b) => {
      const x = Number(b.dataset.x) * width;
      const y = Number(b.dataset.y) * height;
      return [x - gap, y - gap, x + Number(b.dataset.w) + gap, y + Number(b.dataset.h) + gap];
    });
    const free = (x, y) => taken.every(([l, t, r, b]) => x + w <= l || x >= r || y + h <= t || y >= b);
    const margin = Math.min(36, width / 10);
    const rows = [];
    for (let y = height * 0.66; y + h <= height - margin / 2; y += h + gap) rows.push(y);
    for (let y = margin; y < height * 0.66 && y + h <= height; y += h + gap) rows.push(y);
    for (const y of rows) {
      for (let x = margin; x + w <= width - margin / 2; x += Math.max(w / 4, 12)) {
        if (free(x, y)) return [x / width, y / height];
      }
    }
    const n = taken.length;
    return [(margin + n * 12) / width, (height * 0.66 + n * 12) / height];
  }

  // A chip dragged by the pointer (a ghost of its box follows), or pressed (keyboard or tap).
  const ghost = document.createElement("div");
  ghost.className = "place-ghost";
  ghost.hidden = true;
  ghost.setAttribute("aria-hidden", "true");
  document.body.append(ghost);
  let dropped = false;
  for (const chip of chips) {
    const label = labelOf(chip);
    chip.addEventListener("keydown", () => { dropped = false; });
    chip.addEventListener("pointerdown", (event) => {
      dropped = false;
      if (event.button !== 0) return;
      const rect = chip.getBoundingClientRect();
      const grabbed = { x: event.clientX - rect.left, y: event.clientY - rect.top };
      const field = chosenKind();
      let dragging = false;
      chip.setPointerCapture(event.pointerId);
      // The box's size on the page under the pointer, in pixels, and where its corner goes.
      const at = (e) => {
        const sheet = sheetAt(e.clientX, e.clientY) || sheetInView();
        if (!sheet) return null;
        const r = sheet.getBoundingClientRect();
        const { width, height } = pointsOf(sheet);
        const [w, h] = sizeOf(sheet, field.kind);
        const size = { w: (w / width) * r.width, h: (h / height) * r.height };
        const offset = { x: Math.min(grabbed.x, size.w / 2), y: Math.min(grabbed.y, size.h / 2) };
        return { sheet, r, size, left: e.clientX - offset.x, top: e.clientY - offset.y };
      };
      const move = (e) => {
        if (!dragging && Math.hypot(e.clientX - event.clientX, e.clientY - event.clientY) < 4) return;
        dragging = true;
        const spot = at(e);
        if (!spot) return;
        ghost.className = `place-ghost signer-${chip.dataset.signatory}`;
        Object.assign(ghost.style, { left: `${spot.left}px`, top: `${spot.top}px`, width: `${spot.size.w}px`, height: `${spot.size.h}px` });
        ghost.hidden = false;
      };
      const end = (e) => {
        chip.removeEventListener("pointermove", move);
        chip.removeEventListener("pointerup", end);
        chip.removeEventListener("pointercancel", end);
        ghost.hidden = true;
        if (!dragging || e.type === "pointercancel") return;
        // The click that follows the drag is not a press.
        dropped = true;
        const target = sheetAt(e.clientX, e.clientY);
        if (!target) return;
        const spot = at(e);
        const box = newBox(target, chip.dataset.signatory, label,
          (spot.left - spot.r.left) / spot.r.width, (spot.top - spot.r.top) / spot.r.height, field);
        box.focus({ preventScroll: true });
      };
      chip.addEventListener("pointermove", move);
      chip.addEventListener("pointerup", end);
      chip.addEventListener("pointercancel", end);
    });
    chip.addEventListener("click", () => {
      if (dropped) {
        dropped = false;
        return;
      }
      const sheet = sheetInView();
      if (!sheet) return;
      const field = chosenKind();
      const [w, h] = sizeOf(sheet, field.kind);
      const [x, y] = freeSpot(sheet, w, h);
      const box = newBox(sheet, chip.dataset.signatory, label, x, y, field);
      box.focus({ preventScroll: true });
      box.scrollIntoView({ block: "nearest" });
    });
  }

  // Boxes placed before (back from the review, or a refused form) are drawn again; on
  // submitting they are written back as fields like the others.
  for (const input of form.querySelectorAll("input[name=field]")) {
    const parts = input.value.split(":");
    const [signatory, documentIndex, pageNumber, left, top, w, h] = parts;
    const sheet = sheets.find((s) => s.dataset.document === documentIndex && s.dataset.page === pageNumber);
    const chip = chips.find((c) => c.dataset.signatory === signatory);
    if (!sheet || !chip) continue;
    const { width, height } = pointsOf(sheet);
    const field = { kind: parts[7] || "signature", required: parts[8] === "1", label: parts.slice(9).join(":") };
    newBox(sheet, signatory, labelOf(chip), Number(left) / width, Number(top) / height, field, [Number(w), Number(h)]);
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
        round(Number(box.dataset.x) * width), round(Number(box.dataset.y) * height), round(Number(box.dataset.w)),
        round(Number(box.dataset.h)), box.dataset.kind, box.dataset.required, box.dataset.label].join(":");
      form.append(input);
    }
  });

  // The pages as they load: those in view first (the others wait, `loading=lazy`), then the
  // rest one at a time in the background; the status line says how far it has come.
  const progress = document.getElementById("page-progress");
  const images = sheets.map((s) => s.querySelector("img")).filter(Boolean);
  const done = (img) => img.complete && img.naturalWidth > 0;
  let said = "";
  const tell = () => {
    if (!progress) return;
    const shown = images.filter(done).length;
    const text = shown >= images.length
      ? fill(progress.dataset.done, { pages: images.length })
      : fill(progress.dataset.progress, { page: shown, pages: images.length });
    if (text !== said) progress.textContent = said = text;
  };
  for (const img of images) {
    if (!done(img)) img.closest(".sheet").classList.add("loading");
    const loaded = () => { img.closest(".sheet").classList.remove("loading"); tell(); };
    img.addEventListener("load", loaded);
    img.addEventListener("error", loaded);
  }
  tell();
  const rest = async () => {
    for (const img of images) {
      if (img.complete) continue;
      await new Promise((resolve) => {
        img.addEventListener("load", resolve, { once: true });
        img.addEventListener("error", resolve, { once: true });
        img.loading = "eager";
      });
    }
  };
  if (document.readyState === "complete") rest();
  else window.addEventListener("load", rest, { once: true });
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
