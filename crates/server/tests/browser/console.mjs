// Drives the console (/app) in Debian's headless Chromium for crates/server/tests/e2e/console.rs,
// on a phone's screen, one journey per run:
//   invite   an administrator invites a user with a role (args.invite: { name, email, role })
//   send     a sender uploads args.pdf, names three signers (args.signers: [{ name, email }]),
//            drags each one's signature box onto the first page (each lands where the pointer
//            lets go), resizes one by its handle, moves and resizes one by the pointer and the
//            keyboard, moves one by a finger (touch) and pushes it against the page's edge,
//            presses a chip twice (two boxes in free spots, then deleted), checks the
//            palette stays in view at the last page (phone and desk) and the pages' progress,
//            reviews it (boxes drawn), goes back to change (the boxes are still there),
//            reviews again and sends
//   track    the sender finds the workflow (args.workflow, its name) completed, downloads its
//            signed document to args.downloadTo, and signs out
//   bulk     the sender checks a spreadsheet with a bad row (args.sheet), sends it with
//            args.pdf, watches the job finish and downloads its report to args.reportTo
//   denied   a user without the permission sees no People section and is refused at /app/people
//   look     each of args.pages (addresses under /app, or { path, press }: the page's button of that
//            name pressed, the page it answers inspected) opened and inspected, as it is on a phone
// usage: node console.mjs '<json>' with json = { base, journey, email, password, shots, ... }
// Prints one JSON line: { finalUrl, status, text, problems, screenshots, ...journey's own }.
// Problems: console errors, page errors, failed requests, unexpected HTTP errors, layout shift,
// horizontal scrolling, unlabelled controls and WCAG 2.1 A/AA violations (axe-core, a11y.mjs).
import { chromium } from "playwright-core";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { wcagViolations } from "./a11y.mjs";

const args = JSON.parse(process.argv[2]);
const executablePath = process.env.CHROMIUM || "/usr/bin/chromium";
if (!existsSync(executablePath)) {
  console.error(`no Chromium at ${executablePath}: install Debian's chromium (scripts/install-test-deps.sh) or set CHROMIUM`);
  process.exit(3);
}
mkdirSync(args.shots, { recursive: true });
const problems = [];
const screenshots = [];
const result = {};
let lastStatus = 0;
const expectedErrors = new Set(args.expectedErrors || []);

const browser = await chromium.launch({
  executablePath,
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  // args.locale (default en-US) is the language the browser asks for (Accept-Language).
  const context = await browser.newContext({
    viewport: { width: 412, height: 915 }, deviceScaleFactor: 1, acceptDownloads: true, locale: args.locale || "en-US",
  });
  await context.addInitScript(() => {
    window.__layoutShift = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (!e.hadRecentInput) window.__layoutShift += e.value;
    }).observe({ type: "layout-shift", buffered: true });
  });
  const page = await context.newPage();
  page.on("console", (m) => {
    const refused = m.text().startsWith("Failed to load resource: the server responded with a status of 403");
    if (m.type() === "error" && !m.location().url.endsWith("/favicon.ico") && !(refused && expectedErrors.has(403))) {
      problems.push(`console: ${m.text()} (${m.location().url})`);
    }
  });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("requestfailed", (r) => {
    const failure = r.failure()?.errorText ?? "";
    if (!failure.includes("ERR_ABORTED") && !r.url().endsWith("/favicon.ico")) problems.push(`request failed: ${r.url()} ${failure}`);
  });
  page.on("response", (r) => {
    if (r.request().isNavigationRequest() && r.frame() === page.mainFrame()) lastStatus = r.status();
    if (r.status() >= 400 && !r.url().endsWith("/favicon.ico") && !expectedErrors.has(r.status())) {
      problems.push(`HTTP ${r.status()}: ${r.url()}`);
    }
  });

  const shot = async (label) => {
    const file = join(args.shots, `${String(screenshots.length + 1).padStart(2, "0")}-${label}.png`);
    await page.screenshot({ path: file, fullPage: true });
    screenshots.push(file);
  };
  // The page as it is now, on a phone: loaded, not jumping, nothing wider than the screen,
  // every control named.
  const inspect = async (label) => {
    await page.waitForLoadState("networkidle");
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.waitForLoadState("networkidle");
    await page.evaluate(() => window.scrollTo(0, 0));
    const faults = await page.evaluate(() => {
      const out = [];
      if (window.__layoutShift > 0.1) out.push(`the page jumps while it loads (layout shift ${window.__layoutShift.toFixed(3)} > 0.1)`);
      const root = document.documentElement;
      if (root.scrollWidth > window.innerWidth + 1) out.push(`horizontal scrolling: ${root.scrollWidth}px on a ${window.innerWidth}px screen`);
      for (const el of document.querySelectorAll("input, select, textarea, button")) {
        if (el.type === "hidden" || el.closest("[hidden]")) continue;
        const named = (el.labels && el.labels.length > 0) || el.getAttribute("aria-label") ||
          el.getAttribute("aria-labelledby") || (el.tagName === "BUTTON" && el.textContent.trim());
        if (!named) out.push(`unlabelled ${el.tagName.toLowerCase()} ${el.id || el.name || ""}`);
      }
      for (const img of document.querySelectorAll("img")) {
        if (!img.getAttribute("alt")) out.push(`an image without alt text: ${img.src}`);
        if (!img.complete || img.naturalWidth === 0) out.push(`an image did not load: ${img.src}`);
      }
      return out;
    });
    for (const f of faults.concat(await wcagViolations(page))) problems.push(`${label}: ${f}`);
    await shot(label);
  };
  const press = async (locator) => {
    await Promise.all([page.waitForNavigation({ waitUntil: "load" }), locator.click()]);
  };
  const signIn = async () => {
    await page.goto(`${args.base}/app`);
    await page.getByLabel("E-mail address").fill(args.email);
    await press(page.getByRole("button", { name: "Continue" }));
    await page.getByLabel("Password").fill(args.password);
    await press(page.getByRole("button", { name: "Sign in", exact: true }));
    if (!new URL(page.url()).pathname.startsWith("/app")) throw new Error(`sign-in ended at ${page.url()}`);
    await inspect("signed-in");
  };
  const nav = page.getByRole("navigation", { name: "Sections" });

  await signIn();
  if (args.journey === "invite") {
    await press(nav.getByRole("link", { name: "People" }));
    await inspect("people");
    await page.getByText("Invite a user").click();
    await page.getByLabel("Name", { exact: true }).fill(args.invite.name);
    await page.getByLabel("E-mail address", { exact: true }).fill(args.invite.email);
    await page.getByLabel("Role", { exact: true }).selectOption({ label: args.invite.role });
    await press(page.getByRole("button", { name: "Invite" }));
    await inspect("invited");
    result.notice = (await page.locator("#notice").innerText()).trim();
    result.listed = await page.getByRole("cell", { name: args.invite.email, exact: true }).count();
  } else if (args.journey === "send") {
    await press(nav.getByRole("link", { name: "Send" }));
    await inspect("send");
    await page.getByLabel("PDF documents").setInputFiles(args.pdf);
    await page.getByLabel("Name of the workflow").fill(args.workflow);
    for (const [i, signer] of args.signers.entries()) {
      const row = page.getByRole("group", { name: `Signer ${i + 1}` });
      await row.getByLabel("Name", { exact: true }).fill(signer.name);
      await row.getByLabel("E-mail", { exact: true }).fill(signer.email);
    }
    await press(page.getByRole("button", { name: "Next: place the signatures" }));
    await inspect("place");
    // On a phone: the pages shown with their progress said; the palette stays in view at the
    // last page, with nothing wider than the screen.
    const palette = page.locator("#palette");
    const inView = async () => {
      const rect = await palette.boundingBox();
      const height = await page.evaluate(() => window.innerHeight);
      return rect !== null && rect.y >= -1 && rect.y < height && rect.height > 0;
    };
    result.progress = (await page.getByRole("status").filter({ hasText: /pages shown/ }).innerText()).trim();
    await page.locator(".sheet").last().scrollIntoViewIfNeeded();
    result.paletteAtLastPage = { phone: await inView() };
    result.phoneScroll = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    await shot("place-phone-last-page");
    // Fields are placed at a desk: the palette beside the pages, the whole page in view.
    await page.setViewportSize({ width: 1280, height: 1400 });
    const sheet = page.locator(".sheet").first();
    await sheet.scrollIntoViewIfNeeded();
    const box = await sheet.boundingBox();
    const frac = async (locator) => {
      const b = await locator.boundingBox();
      const s = await sheet.boundingBox();
      return { x: (b.x - s.x) / s.width, y: (b.y - s.y) / s.height, w: b.width, h: b.height };
    };
    // Each box lands where the pointer lets go of it: the first grabbed near the chip's
    // corner has its own corner there; the others hold the drop point.
    const off = [];
    for (const [i, signer] of args.signers.entries()) {
      const chip = page.getByRole("button", { name: `Box of ${signer.name}` });
      const to = { x: box.width * (0.1 + 0.25 * i), y: box.height * (0.55 + 0.1 * i) };
      await chip.dragTo(sheet, { sourcePosition: { x: 6, y: 6 }, targetPosition: to });
      const at = await frac(page.locator(".placed").last());
      off.push(Math.max(Math.abs(at.x - (to.x - 6) / box.width), Math.abs(at.y - (to.y - 6) / box.height)));
    }
    result.dropOffBy = Math.max(...off);
    const first = page.locator(".placed").first();
    // Resized by its corner handle with the pointer: 40 px wider, 20 px taller.
    const before = await frac(first);
    const handle = await first.locator(".handle").boundingBox();
    await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
    await page.mouse.down();
    await page.mouse.move(handle.x + handle.width / 2 + 20, handle.y + handle.height / 2 + 10, { steps: 2 });
    await page.mouse.move(handle.x + handle.width / 2 + 40, handle.y + handle.height / 2 + 20, { steps: 2 });
    await page.mouse.up();
    const after = await frac(first);
    result.resizedBy = [Math.round(after.w - before.w), Math.round(after.h - before.h)];
    result.resizeKeptCorner = Math.abs(after.x - before.x) < 0.005 && Math.abs(after.y - before.y) < 0.005;
    // Moved by the pointer, held where it was grabbed: 30 px right and down.
    const second = page.locator(".placed").nth(1);
    const held = await second.boundingBox();
    await page.mouse.move(held.x + 20, held.y + 30);
    await page.mouse.down();
    await page.mouse.move(held.x + 50, held.y + 60, { steps: 3 });
    await page.mouse.up();
    const moved = await second.boundingBox();
    result.movedBy = [Math.round(moved.x - held.x), Math.round(moved.y - held.y)];
    // From the keyboard: the second box one step right, a big step down, 4 points wider and 2 taller.
    const data = (locator) => locator.evaluate((b) => ({ x: Number(b.dataset.x), y: Number(b.dataset.y), w: Number(b.dataset.w), h: Number(b.dataset.h) }));
    const k0 = await data(second);
    await second.focus();
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("Shift+ArrowDown");
    await page.keyboard.press("Alt+ArrowRight");
    await page.keyboard.press("Control+ArrowRight");
    await page.keyboard.press("Alt+ArrowDown");
    const k1 = await data(second);
    result.keyboard = { dx: Math.round((k1.x - k0.x) * 100), dy: Math.round((k1.y - k0.y) * 100), dw: k1.w - k0.w, dh: k1.h - k0.h };
    // By touch (a finger, through Chromium's own touch input, so the page's touch-action
    // decides whether the finger moves the box or scrolls the page): the third box moved 30 px
    // right and 20 px down, then pushed far past the page's right edge, where it stops at the
    // edge, still whole on its page.
    const cdp = await context.newCDPSession(page);
    await page.evaluate(() => window.addEventListener("pointerdown", (e) => { window.__pointerType = e.pointerType; }, true));
    const finger = async (from, to) => {
      await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [{ x: from.x, y: from.y }] });
      for (let step = 1; step <= 4; step += 1) {
        const x = from.x + ((to.x - from.x) * step) / 4;
        const y = from.y + ((to.y - from.y) * step) / 4;
        await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: [{ x, y }] });
      }
      await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
    };
    const touched = page.locator(".placed").nth(2);
    const t0 = await touched.boundingBox();
    await finger({ x: t0.x + 15, y: t0.y + 15 }, { x: t0.x + 45, y: t0.y + 35 });
    const t1 = await touched.boundingBox();
    const pushed = await sheet.boundingBox();
    await finger({ x: t1.x + 15, y: t1.y + 15 }, { x: pushed.x + pushed.width * 1.5, y: t1.y + 15 });
    const t2 = await data(touched);
    const t2px = await touched.boundingBox();
    result.touch = {
      pointerType: await page.evaluate(() => window.__pointerType),
      movedBy: [Math.round(t1.x - t0.x), Math.round(t1.y - t0.y)],
      atRightEdge: Math.abs(t2px.x + t2px.width - (pushed.x + pushed.width)) <= 2,
      onItsPage: await touched.evaluate((b, d) => d.x >= 0 && d.y >= 0 && d.x + d.w / Number(b.parentElement.dataset.width) <= 1.0001, t2),
      page: await touched.evaluate((b) => b.parentElement.dataset.page),
    };
    // A chip pressed twice from the keyboard: two boxes in free spots, overlapping nothing;
    // then removed with Delete.
    const placedBefore = await page.locator(".placed").count();
    const third = page.getByRole("button", { name: `Box of ${args.signers[2].name}` });
    await third.focus();
    await page.keyboard.press("Enter");
    await third.focus();
    await page.keyboard.press("Enter");
    result.pressedOverlaps = await page.evaluate(() => {
      const rects = Array.from(document.querySelectorAll(".placed")).map((b) => b.getBoundingClientRect());
      const pressed = rects.slice(-2);
      let overlaps = 0;
      for (const [i, a] of pressed.entries()) {
        for (const b of rects.slice(0, rects.length - 2 + i)) {
          if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) overlaps += 1;
        }
      }
      return overlaps;
    });
    result.pressedPlaced = (await page.locator(".placed").count()) - placedBefore;
    await shot("placed-by-keyboard");
    for (let n = 0; n < 2; n += 1) {
      await page.locator(".placed").last().focus();
      await page.keyboard.press("Delete");
    }
    result.afterDelete = (await page.locator(".placed").count()) - placedBefore;
    // Fields besides the signatures: the first signer's signing date, a checkbox for the second.
    const kind = page.getByLabel("Kind", { exact: true });
    await kind.selectOption({ label: "Date signed (filled in)" });
    await page.getByRole("button", { name: `Box of ${args.signers[0].name}` })
      .dragTo(sheet, { targetPosition: { x: box.width * 0.2, y: box.height * 0.9 } });
    await kind.selectOption({ label: "Checkbox (the signer ticks it)" });
    await page.getByLabel("Label for the signer (text and checkbox)").fill("I have read the terms");
    await page.getByRole("button", { name: `Box of ${args.signers[1].name}` })
      .dragTo(sheet, { targetPosition: { x: box.width * 0.5, y: box.height * 0.3 } });
    result.placed = await page.locator(".placed").count();
    if (args.saveAs) await page.getByLabel("Also save as a template named (optional)").fill(args.saveAs);
    await shot("placed");
    await page.locator(".sheet").last().scrollIntoViewIfNeeded();
    result.paletteAtLastPage.desk = await inView();
    await page.setViewportSize({ width: 412, height: 915 });
    await press(page.getByRole("button", { name: "Next: review" }));
    await inspect("review");
    result.reviewBoxes = await page.locator("svg rect").count();
    // Back to change: the boxes come back where they were; then on to the review once more.
    await press(page.getByRole("button", { name: "Back to change" }));
    result.placedAgain = await page.locator(".placed").count();
    await press(page.getByRole("button", { name: "Next: review" }));
    await press(page.getByRole("button", { name: "Send", exact: true }));
    await inspect("sent");
    result.workflowUrl = page.url();
    result.state = (await page.locator("#state").innerText()).trim();
  } else if (args.journey === "track") {
    await page.getByLabel("Status").selectOption({ label: "Completed" });
    await press(page.getByRole("button", { name: "Filter" }));
    await inspect("completed-list");
    await press(page.getByRole("link", { name: args.workflow }));
    await inspect("workflow");
    result.state = (await page.locator("#state").innerText()).trim();
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: args.document }).click(),
    ]);
    await download.saveAs(args.downloadTo);
    result.downloaded = args.downloadTo;
    await press(page.getByRole("button", { name: "Sign out" }));
    await shot("signed-out");
    await page.goto(`${args.base}/app`);
    result.afterSignOut = new URL(page.url()).pathname;
  } else if (args.journey === "bulk") {
    await press(nav.getByRole("link", { name: "Bulk" }));
    await inspect("bulk");
    const choose = async () => {
      await page.getByLabel("PDF documents (sent with every row)").setInputFiles(args.pdf);
      await page.getByLabel("Spreadsheet of the rows (CSV or XLSX)").setInputFiles(args.sheet);
    };
    if (args.template) await page.getByLabel("Template", { exact: true }).selectOption({ label: args.template });
    await choose();
    await press(page.getByRole("button", { name: "Check the rows" }));
    await inspect("checked");
    result.checked = (await page.locator("#checked-heading").innerText()).trim();
    result.problemRows = await page.locator("#problems tbody tr").allInnerTexts();
    await choose();
    await press(page.getByRole("button", { name: "Send", exact: true }));
    await inspect("job");
    // The page follows the job by itself.
    await page.locator("[data-field=status]", { hasText: /^Completed/ }).waitFor({ timeout: 60000 });
    result.jobStatus = (await page.locator("[data-field=status]").innerText()).trim();
    result.succeeded = Number(await page.locator("[data-field=succeeded]").innerText());
    result.failed = Number(await page.locator("[data-field=failed]").innerText());
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Report of every row (CSV)" }).click(),
    ]);
    await download.saveAs(args.reportTo);
    await shot("job-done");
  } else if (args.journey === "denied") {
    result.sections = await nav.getByRole("link").allInnerTexts();
    const response = await page.goto(`${args.base}/app/people`);
    result.peopleStatus = response.status();
    await inspect("denied");
  } else if (args.journey === "look") {
    result.statuses = [];
    for (const [i, entry] of args.pages.entries()) {
      const { path, press: button } = typeof entry === "string" ? { path: entry } : entry;
      const response = await page.goto(`${args.base}${path}`);
      if (button) {
        await press(page.getByRole("button", { name: button, exact: true }));
        result.statuses.push(lastStatus);
      } else {
        result.statuses.push(response.status());
      }
      await inspect(`page-${i + 1}`);
    }
  } else {
    throw new Error(`unknown journey ${args.journey}`);
  }
  result.finalUrl = page.url();
  result.status = lastStatus;
  result.text = (await page.locator("body").innerText().catch(() => "")).trim().slice(0, 2000);
} catch (e) {
  problems.push(`driver: ${e.message}`);
} finally {
  await browser.close();
}
console.log(JSON.stringify({ ...result, problems, screenshots }));
