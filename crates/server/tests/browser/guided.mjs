// Drives the guided workflow signer page in Debian's headless Chromium for the Rust browser
// test `a_signer_is_guided_through_the_places_on_the_pages_in_a_browser`
// (crates/server/tests/e2e/workflows.rs).
//
// usage: node guided.mjs '<json>'   with json = {
//   link: the signer page's address,
//   screen: "phone" (412 x 915) | "desk" (1280 x 800),
//   way: "draw" (the guide by its Next button, a drawing, one refusal first) |
//        "keyboard" (Tab and keys only, the typed name),
//   text: { pan: the PAN to type, panField: its input's name }, shots: directory for the screenshots,
//   otp: optional { codeFile }: the page first asks the signer to confirm their phone; the driver
//        asks for the code, waits (up to 60 s) for the test to write the texted code to codeFile,
//        types it and verifies, then signs }
// Prints one JSON line: { places: [{kind, inside}], steps, guideBefore, guideAfter, kept,
//   otp: { asked, sent, confirmed }, finalText, problems: [console errors, page errors, failed
//   requests, HTTP errors, layout faults, WCAG violations], screenshots }.
import { chromium } from "playwright-core";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { wcagViolations } from "./a11y.mjs";

const args = JSON.parse(process.argv[2]);
const executablePath = process.env.CHROMIUM || "/usr/bin/chromium";
if (!existsSync(executablePath)) {
  console.error(`no Chromium at ${executablePath}: install Debian's chromium (scripts/install-test-deps.sh) or set CHROMIUM`);
  process.exit(3);
}
mkdirSync(args.shots, { recursive: true });
const screenshots = [];
const problems = [];
const outcome = {};
let step = 0;

const browser = await chromium.launch({
  executablePath,
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  const phone = args.screen === "phone";
  const context = await browser.newContext({
    viewport: phone ? { width: 412, height: 915 } : { width: 1280, height: 800 },
    deviceScaleFactor: 1,
  });
  const page = await context.newPage();
  // The refusal this driver provokes answers 400, which the browser logs.
  let refusing = false;
  page.on("console", (m) => {
    const provoked = refusing && m.text().includes("status of 400");
    if (m.type() === "error" && !m.location().url.endsWith("/favicon.ico") && !provoked) {
      problems.push(`console: ${m.text()}`);
    }
  });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("dialog", (d) => { problems.push(`dialog: ${d.message()}`); d.dismiss().catch(() => {}); });
  page.on("requestfailed", (r) => {
    const failure = r.failure()?.errorText ?? "";
    if (!failure.includes("ERR_ABORTED")) problems.push(`request failed: ${r.url()} ${failure}`);
  });
  const shot = async (label) => {
    step += 1;
    const file = join(args.shots, `${String(step).padStart(2, "0")}-${args.screen}-${label}.png`);
    await page.screenshot({ path: file, fullPage: true });
    screenshots.push(file);
  };
  // Every page image loaded (as a signer scrolling through makes them), then the checks: no
  // horizontal scrolling, and WCAG 2.1 AA by axe.
  const inspect = async (label) => {
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.waitForLoadState("networkidle");
    await page.evaluate(() => window.scrollTo(0, 0));
    const root = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    if (root[0] > root[1] + 1) problems.push(`${label}: horizontal scrolling: ${root[0]}px on a ${root[1]}px screen`);
    for (const f of await wcagViolations(page)) problems.push(`${label}: ${f}`);
  };
  // Each place lies over its page's image, inside it.
  const places = async () => page.evaluate(() => Array.from(document.querySelectorAll(".sheet.shown .spot")).map((spot) => {
    const sheet = spot.closest(".sheet").getBoundingClientRect();
    const box = spot.getBoundingClientRect();
    const inside = box.left >= sheet.left - 1 && box.right <= sheet.right + 1 &&
      box.top >= sheet.top - 1 && box.bottom <= sheet.bottom + 1 && box.width > 0;
    return { kind: Array.from(spot.classList).find((c) => c.startsWith("kind-")), inside,
      at: [(box.left - sheet.left) / sheet.width, (box.top - sheet.top) / sheet.height] };
  }));
  const guide = () => page.locator("#guide-status").innerText();

  await page.goto(args.link);
  await page.waitForLoadState("networkidle");
  await inspect("opened");
  if (args.otp) {
    // The phone first, by keyboard: the code asked for, typed as it came by SMS, verified.
    const notice = () => page.locator("#notice").innerText().catch(() => "");
    outcome.otp = { asked: (await page.locator("#otp h2").innerText()).trim() };
    await page.locator("#otp-send-form button").focus();
    await Promise.all([page.waitForNavigation(), page.keyboard.press("Enter")]);
    await inspect("code-sent");
    outcome.otp.sent = (await notice()).trim();
    await shot("code-sent");
    let code = "";
    for (let waited = 0; waited < 600 && !code; waited += 1) {
      if (existsSync(args.otp.codeFile)) code = readFileSync(args.otp.codeFile, "utf8").trim();
      else await new Promise((done) => setTimeout(done, 100));
    }
    if (!code) throw new Error("no code was written to " + args.otp.codeFile);
    await page.locator("#otp-code").focus();
    await page.keyboard.type(code);
    await Promise.all([page.waitForNavigation(), page.keyboard.press("Enter")]);
    await inspect("phone-confirmed");
    outcome.otp.confirmed = (await notice()).trim();
    outcome.otp.stepGone = (await page.locator("#otp").count()) === 0;
    await shot("phone-confirmed");
  }
  outcome.places = await places();
  outcome.steps = await page.locator(".spot.step").count();
  outcome.guideBefore = await guide();
  await shot("opened");

  if (args.way === "draw") {
    // The guide leads: Next focuses the first place (the PAN, at the top of page 1).
    await page.locator("#guide-next").click();
    const focused = await page.evaluate(() => document.activeElement && document.activeElement.name);
    if (focused !== args.text.panField) problems.push(`Next focused ${focused}, not the PAN (${args.text.panField})`);
    await page.keyboard.type(args.text.pan);
    await page.locator("#guide-next").click();
    // The drawing: the Draw tab, strokes with the mouse on the pad.
    await page.getByRole("radio", { name: /Draw|बनाएँ/ }).check();
    const pad = page.locator("#pad");
    await pad.scrollIntoViewIfNeeded();
    const b = await pad.boundingBox();
    await page.mouse.move(b.x + b.width * 0.1, b.y + b.height * 0.7);
    await page.mouse.down();
    for (const [x, y] of [[0.3, 0.2], [0.5, 0.8], [0.9, 0.3]]) {
      await page.mouse.move(b.x + b.width * x, b.y + b.height * y, { steps: 4 });
    }
    await page.mouse.up();
    const shown = await page.locator(".spot.kind-signature img").count();
    if (shown === 0) problems.push("the drawing is not shown in the signature's place");
    outcome.guideAfter = await guide();
    await shot("ready");
    // Sent without the consent (the browser's own check taken away, as an old browser would):
    // the server refuses, and nothing drawn or typed is lost.
    await page.evaluate(() => document.getElementById("consent").removeAttribute("required"));
    refusing = true;
    await Promise.all([page.waitForNavigation(), page.locator("#finish").click()]);
    await page.waitForLoadState("networkidle");
    refusing = false;
    outcome.refusal = await page.locator("#error").innerText().catch(() => "");
    outcome.kept = {
      pan: await page.locator(`#${args.text.panField}`).inputValue(),
      mode: await page.locator("input[name=mode]:checked").getAttribute("value"),
      drawingShown: await page.locator(".spot.kind-signature img").count(),
    };
    await inspect("refused");
    await shot("refused");
    await page.locator("#consent").check();
    await Promise.all([page.waitForNavigation(), page.locator("#finish").click()]);
  } else {
    // By keyboard only: Tab from the guide's Next lands nowhere unexpected; the fields are
    // reached and filled with keys; the typed name (filled in with the signer's name) is adopted.
    await page.locator("#guide-next").focus();
    await page.keyboard.press("Enter");
    const first = await page.evaluate(() => document.activeElement && (document.activeElement.name || document.activeElement.className));
    outcome.firstFocus = first;
    if (first && first.startsWith && first.startsWith("field")) {
      const type = await page.evaluate(() => document.activeElement.type);
      if (type === "checkbox") await page.keyboard.press("Space");
      else await page.keyboard.type(args.text.pan);
    }
    await page.locator("#guide-next").focus();
    await page.keyboard.press("Enter");
    outcome.guideAfter = await guide();
    await page.locator("#consent").focus();
    await page.keyboard.press("Space");
    await shot("ready");
    await page.locator("#finish").focus();
    await Promise.all([page.waitForNavigation(), page.keyboard.press("Enter")]);
  }
  await page.waitForLoadState("networkidle");
  outcome.finalText = (await page.locator("main").innerText()).slice(0, 400);
  await inspect("signed");
  await shot("signed");
} catch (e) {
  problems.push(`driver: ${e.stack || e}`);
} finally {
  await browser.close();
}
console.log(JSON.stringify({ ...outcome, problems, screenshots }));
