// Drives a Signet signer page in Debian's headless Chromium for the Rust browser tests
// (crates/server/tests/e2e/gateway_browser.rs).
//
// usage: node sign.mjs '<json>'   with json = {
//   start: the integrator's page that posts the envelope to the gateway,
//   action: "typed" | "draw" | "upload" | "cancel" | "esign",
//   javaScript: false to run with JavaScript disabled (default true),
//   pointer: "mouse" | "touch" (draw only; default "mouse"),
//   name, font: the typed name and style ("handwriting" | "plain"),
//   uploads: [image paths tried in order; all but the last are expected to be refused],
//   doubleSubmit: press Sign twice, doubleSubmitGapMs apart (an impatient signer),
//   latencyMs: answers to the submission arrive this much later (a slow mobile connection),
//   aadhaar, otp: what the signer gives the test ESP (esign only),
//   pin: the token's PIN (token only; without it the signer gives up when the page reports
//   the signer utility's error), expectPad: false when no pad is connected (pad only),
//   shots: directory for the screenshots, doneUrlPrefix: the integrator's receiver }
// Prints one JSON line: { finalUrl, signerPage, signPosts: the signing submissions sent,
//   messages: [errors shown on the page],
//   problems: [console errors, page errors, failed requests, HTTP errors, dialogs, layout and
//   labelling faults], screenshots }.
import { chromium } from "playwright-core";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { wcagViolations } from "./a11y.mjs";

const args = JSON.parse(process.argv[2]);
const javaScript = args.javaScript !== false;
const executablePath = process.env.CHROMIUM || "/usr/bin/chromium";
if (!existsSync(executablePath)) {
  console.error(`no Chromium at ${executablePath}: install Debian's chromium (scripts/install-test-deps.sh) or set CHROMIUM`);
  process.exit(3);
}
mkdirSync(args.shots, { recursive: true });
const screenshots = [];
const messages = [];
const problems = [];
let step = 0;

const browser = await chromium.launch({
  executablePath,
  headless: true,
  // Background networking off: the machine has no outside network and Chromium would keep trying.
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  // A signer's home folder, where the signer utility installed its CA (~/.pki/nssdb).
  ...(args.home ? { env: { ...process.env, HOME: args.home } } : {}),
});
try {
  const context = await browser.newContext({
    javaScriptEnabled: javaScript,
    // The signer utility's certificate comes from its own local CA, which the utility installs
    // into the signer's certificate stores (args.home); without that home the test browser
    // does not have it.
    ignoreHTTPSErrors: !args.home && (args.action === "token" || args.action === "pad"),
    viewport: { width: 412, height: 915 }, // a phone
    deviceScaleFactor: 1,
    hasTouch: args.pointer === "touch",
    isMobile: args.pointer === "touch",
  });
  if (javaScript) {
    // Layout shifts (content jumping as images load under the signer's finger), summed per page
    // the way Chromium's Cumulative Layout Shift counts them.
    await context.addInitScript(() => {
      window.__layoutShift = 0;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) if (!e.hadRecentInput) window.__layoutShift += e.value;
      }).observe({ type: "layout-shift", buffered: true });
    });
  }
  const page = await context.newPage();
  // The token form probes the signer utility's ports: a refused connection there is how the
  // page learns that the utility is missing, not a fault of the page.
  const utilityProbe = (url) => /^https:\/\/127\.0\.0\.1:4576[3-6]\//.test(url);
  page.on("console", (m) => {
    // The browser's own favicon request is not the page's doing (Signet serves none).
    if (m.type() === "error" && !m.location().url.endsWith("/favicon.ico") && !utilityProbe(m.location().url)) {
      problems.push(`console: ${m.text()} (${m.location().url})`);
    }
  });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("dialog", (d) => { problems.push(`dialog: ${d.message()}`); d.dismiss().catch(() => {}); });
  page.on("requestfailed", (r) => {
    const failure = r.failure()?.errorText ?? "";
    // A navigation (the auto-submitting forms) aborts what the previous page still loads.
    if (!failure.includes("ERR_ABORTED") && !utilityProbe(r.url())) problems.push(`request failed: ${r.url()} ${failure}`);
  });
  let lastDocumentStatus = 0;
  page.on("response", (r) => {
    if (r.request().isNavigationRequest() && r.frame() === page.mainFrame()) lastDocumentStatus = r.status();
  });
  let signPosts = 0;
  page.on("request", (r) => { if (r.method() === "POST" && /\/sign\/g\/.*\/sign(\?|$)/.test(r.url())) signPosts += 1; });
  page.on("response", (r) => {
    if (r.status() >= 400 && !utilityProbe(r.url())) problems.push(`HTTP ${r.status()}: ${r.url()}`);
  });

  const shot = async (label) => {
    step += 1;
    const file = join(args.shots, `${String(step).padStart(2, "0")}-${label}.png`);
    await page.screenshot({ path: file, fullPage: true });
    screenshots.push(file);
  };
  // Waits for the browser to show `wanted`. A navigation that a newer one replaced (a second
  // submission) ends a wait with ERR_ABORTED: keep waiting for the page the browser does show;
  // but a page that answered with an error status is where the browser stays: stop at once.
  const arrive = async (wanted) => {
    const deadline = Date.now() + 60000;
    for (;;) {
      try {
        return await page.waitForURL(wanted, { timeout: Math.max(1, Math.min(2000, deadline - Date.now())) });
      } catch (e) {
        const aborted = String(e).includes("ERR_ABORTED");
        const timedOut = String(e).includes("Timeout");
        if ((!aborted && !timedOut) || Date.now() > deadline || (timedOut && lastDocumentStatus >= 400)) {
          await shot("stuck").catch(() => {});
          const text = (await page.locator("body").innerText().catch(() => "")).slice(0, 500);
          throw new Error(`${e}\nthe browser stayed on ${page.url()} (HTTP ${lastDocumentStatus}):\n${text}`);
        }
      }
    }
  };
  const landed = () => arrive((u) => u.toString().startsWith(args.doneUrlPrefix));
  const onSignerPage = () => page.waitForURL(/\/sign\/g\/[^/]+\/[^/]+$/, { timeout: 30000 });
  // Phone checks on the page as it is now: nothing wider than the screen, every control named.
  const inspect = async (label) => {
    if (!javaScript) return; // page.evaluate needs JavaScript
    // Let every lazy image load, as a signer scrolling down to the forms makes them.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.waitForLoadState("networkidle");
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.waitForLoadState("networkidle");
    const faults = await page.evaluate(() => {
      const out = [];
      if (window.__layoutShift > 0.1 && !window.__layoutShiftReported) {
        window.__layoutShiftReported = true;
        out.push(`the page jumps while it loads (layout shift ${window.__layoutShift.toFixed(3)} > 0.1)`);
      }
      const root = document.documentElement;
      if (root.scrollWidth > window.innerWidth + 1) {
        out.push(`horizontal scrolling: ${root.scrollWidth}px on a ${window.innerWidth}px screen`);
      }
      for (const el of document.querySelectorAll("input, select, textarea, button, canvas")) {
        if (el.type === "hidden" || el.closest("[hidden]")) continue;
        const named = (el.labels && el.labels.length > 0) || el.getAttribute("aria-label") ||
          el.getAttribute("aria-labelledby") || (el.tagName === "BUTTON" && el.textContent.trim());
        if (!named) out.push(`unlabelled ${el.tagName.toLowerCase()} ${el.id || el.name || ""}`);
      }
      return out;
    });
    for (const f of faults.concat(await wcagViolations(page))) problems.push(`${label}: ${f}`);
  };
  const submit = async (button) => {
    if (args.latencyMs) {
      // From here on a slow mobile connection: every answer arrives this much later.
      const cdp = await context.newCDPSession(page);
      await cdp.send("Network.enable");
      await cdp.send("Network.emulateNetworkConditions", {
        offline: false, latency: args.latencyMs, downloadThroughput: -1, uploadThroughput: -1,
      });
    }
    if (args.doubleSubmit) {
      // Two quick presses, as an impatient signer on a slow phone does (raw mouse clicks
      // 150 ms apart: the second lands while the first is still being signed).
      await button.scrollIntoViewIfNeeded();
      const b = await button.boundingBox();
      await page.mouse.click(b.x + b.width / 2, b.y + b.height / 2);
      await page.waitForTimeout(args.doubleSubmitGapMs ?? 150);
      await page.mouse.click(b.x + b.width / 2, b.y + b.height / 2);
    } else {
      await button.click();
    }
  };

  // The integrator's page posts the envelope: by itself with JavaScript, by its button without.
  await page.goto(args.start);
  if (!javaScript) {
    await shot("integrator");
    await Promise.all([onSignerPage(), page.getByRole("button", { name: "Continue to signing" }).click()]);
  } else {
    await onSignerPage();
  }
  const signerPage = page.url();
  await page.waitForLoadState("load");
  await shot("opened");
  await inspect("signer page");

  if (args.action === "typed") {
    const form = page.locator("#typed-form");
    await form.getByLabel("Type your name").fill(args.name);
    await form.locator(`input[name=font][value=${args.font || "handwriting"}]`).check();
    await form.getByLabel(/I agree to sign/).check();
    await shot("typed");
    if (!javaScript) {
      // Without JavaScript the result form does not submit itself: the signer presses its button.
      await Promise.all([arrive((u) => u.toString().split("?")[0] === `${signerPage}/sign`), submit(form.getByRole("button", { name: "Sign", exact: true }))]);
      await shot("result-form");
      await Promise.all([landed(), page.getByRole("button", { name: "Continue" }).click()]);
    } else {
      await Promise.all([landed(), submit(form.getByRole("button", { name: "Sign", exact: true }))]);
    }
  } else if (args.action === "draw") {
    const form = page.locator("#draw-form");
    await form.waitFor({ state: "visible" });
    const pad = page.locator("#pad");
    // Sign before drawing anything: the page asks for the drawing and stays.
    await form.getByLabel(/I agree to sign/).check();
    await form.getByRole("button", { name: "Sign", exact: true }).click();
    const asked = form.getByRole("alert");
    await asked.waitFor({ state: "visible", timeout: 5000 });
    messages.push((await asked.innerText()).trim());
    if (page.url() !== signerPage) problems.push(`an empty drawing was submitted (${page.url()})`);
    await shot("empty-pad");
    await pad.scrollIntoViewIfNeeded();
    await page.waitForLoadState("networkidle");
    await pad.scrollIntoViewIfNeeded();
    const box = await pad.boundingBox();
    const points = [];
    for (let i = 0; i <= 30; i++) {
      points.push({
        x: box.x + 20 + (i * (box.width - 40)) / 30,
        y: box.y + box.height * (0.5 + 0.3 * Math.sin(i / 3)),
      });
    }
    if (args.pointer === "touch") {
      // A finger: raw touch events through the DevTools protocol (what a phone sends).
      const cdp = await context.newCDPSession(page);
      const touch = (type, p) => cdp.send("Input.dispatchTouchEvent", {
        type, touchPoints: p ? [{ x: p.x, y: p.y, id: 1, radiusX: 4, radiusY: 4, force: 1 }] : [],
      });
      await touch("touchStart", points[0]);
      for (const p of points.slice(1)) await touch("touchMove", p);
      await touch("touchEnd");
    } else {
      await page.mouse.move(points[0].x, points[0].y);
      await page.mouse.down();
      for (const p of points.slice(1)) await page.mouse.move(p.x, p.y, { steps: 2 });
      await page.mouse.up();
    }
    await form.getByLabel(/I agree to sign/).check();
    await shot("drawn");
    await inspect("drawn");
    await Promise.all([landed(), submit(form.getByRole("button", { name: "Sign", exact: true }))]);
  } else if (args.action === "upload") {
    for (const [i, file] of args.uploads.entries()) {
      const form = page.locator("#upload-form");
      await form.getByLabel("Upload a signature image").setInputFiles(file);
      await form.getByLabel(/I agree to sign/).check();
      const last = i === args.uploads.length - 1;
      if (last) {
        await shot("upload-accepted");
        await Promise.all([landed(), submit(form.getByRole("button", { name: "Sign", exact: true }))]);
      } else {
        await Promise.all([page.waitForNavigation(), form.getByRole("button", { name: "Sign", exact: true }).click()]);
        const error = page.getByRole("alert");
        messages.push((await error.count()) ? (await error.first().innerText()).trim() : "");
        await shot(`upload-refused-${i + 1}`);
        await inspect(`refused upload ${i + 1}`);
      }
    }
  } else if (args.action === "esign") {
    // Every hop is a form: with JavaScript it submits itself, without it the signer presses
    // its button (Signet's page to the ESP, the ESP's answer back, Signet's result onwards).
    const pressContinue = async (label) => {
      if (javaScript) return;
      await shot(label);
      await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Continue" }).click()]);
    };
    await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Sign with Aadhaar eSign" }).click()]);
    await pressContinue("to-esp");
    await page.getByLabel(/Aadhaar number/).waitFor({ state: "visible" });
    await shot("esp-aadhaar");
    await inspect("ESP Aadhaar page");
    await page.getByLabel(/Aadhaar number/).fill(args.aadhaar);
    await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Send OTP" }).click()]);
    await page.getByLabel("OTP", { exact: true }).fill(args.otp);
    await page.getByLabel(/I consent to sign/).check();
    await shot("esp-otp");
    if (javaScript) {
      await Promise.all([landed(), page.getByRole("button", { name: "Sign", exact: true }).click()]);
    } else {
      await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Sign", exact: true }).click()]);
      await pressContinue("esp-answer");
      await shot("signet-result");
      await Promise.all([landed(), page.getByRole("button", { name: "Continue" }).click()]);
    }
  } else if (args.action === "token") {
    const box = page.locator("#token-form");
    await box.waitFor({ state: "visible" });
    if (args.pin) {
      await page.locator("#token-choose").waitFor({ state: "visible", timeout: 20000 });
      await shot("token-certificates");
      await inspect("token form");
      await page.getByLabel("Token PIN").fill(args.pin);
      await Promise.all([landed(), page.getByRole("button", { name: "Sign with the token" }).click()]);
    } else {
      const giveUp = page.getByRole("button", { name: "Give up and return" });
      await giveUp.waitFor({ state: "visible", timeout: 20000 });
      messages.push((await page.locator("#token-status").innerText()).trim());
      await shot("token-missing");
      await Promise.all([landed(), giveUp.click()]);
    }
  } else if (args.action === "pad") {
    // The signature pad through the signer utility: take its signature onto the canvas and
    // sign, or (no pad connected and the pad the only option) give up with 117.
    const form = page.locator("#draw-form");
    await form.waitFor({ state: "visible" });
    if (args.expectPad === false) {
      const giveUp = page.locator("#pad-give-up").getByRole("button", { name: "Give up and return" });
      await giveUp.waitFor({ state: "visible", timeout: 20000 });
      messages.push((await page.locator("#pad-status").innerText()).trim());
      await shot("pad-missing");
      await Promise.all([landed(), giveUp.click()]);
    } else {
      const take = page.getByRole("button", { name: "Take the signature from the pad" });
      await take.waitFor({ state: "visible", timeout: 20000 });
      await take.click();
      await form.getByLabel(/I agree to sign/).check();
      await shot("pad-signature");
      await Promise.all([landed(), submit(form.getByRole("button", { name: "Sign", exact: true }))]);
    }
  } else if (args.action === "cancel") {
    await Promise.all([landed(), page.getByRole("button", { name: "Cancel" }).click()]);
  } else {
    throw new Error(`unknown action ${args.action}`);
  }
  await page.waitForLoadState("load");
  await shot("result");
  console.log(JSON.stringify({ finalUrl: page.url(), signerPage, signPosts, messages, problems, screenshots }));
} finally {
  await browser.close();
}
