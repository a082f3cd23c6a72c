// Drives a Signet signer page in Debian's headless Chromium for the Rust browser tests.
// usage: node sign.mjs '<json>'   with json = {
//   url: the signer page, action: "typed" | "typed-nojs" | "draw" | "upload" | "cancel",
//   shots: directory for screenshots, name: typed name,
//   uploads: [paths tried in order; all but the last are expected to be refused],
//   doneUrlPrefix: where the result post lands (the integrator's receiver) }
// Prints one JSON line: { finalUrl, messages: [error texts shown on the page], screenshots }.
import { chromium } from "playwright-core";
import { mkdirSync } from "node:fs";
import { join } from "node:path";

const args = JSON.parse(process.argv[2]);
mkdirSync(args.shots, { recursive: true });
const screenshots = [];
const messages = [];
let step = 0;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  // Background networking off: the machine has no outside network and Chromium would keep trying.
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  const context = await browser.newContext({
    javaScriptEnabled: args.action !== "typed-nojs",
    viewport: { width: 412, height: 915 }, // a phone
    deviceScaleFactor: 1,
  });
  const page = await context.newPage();
  const shot = async (label) => {
    step += 1;
    const file = join(args.shots, `${String(step).padStart(2, "0")}-${label}.png`);
    await page.screenshot({ path: file, fullPage: true });
    screenshots.push(file);
  };
  const landed = () => page.waitForURL((u) => u.toString().startsWith(args.doneUrlPrefix), { timeout: 30000 });

  await page.goto(args.url);
  await shot("opened");

  if (args.action === "typed" || args.action === "typed-nojs") {
    const form = page.locator("#typed-form");
    await form.locator("#typedName").fill(args.name);
    await form.locator("input[name=font][value=handwriting]").check();
    await form.locator("input[name=consent]").check();
    await shot("typed");
    if (args.action === "typed-nojs") {
      // Without JavaScript the result form does not submit itself: the signer presses its button.
      await Promise.all([page.waitForNavigation(), form.locator("button[type=submit]").click()]);
      await shot("result-form");
      await Promise.all([landed(), page.locator("form button[type=submit]").first().click()]);
    } else {
      await Promise.all([landed(), form.locator("button[type=submit]").click()]);
    }
  } else if (args.action === "draw") {
    const form = page.locator("#draw-form");
    await form.waitFor({ state: "visible" });
    await page.locator("#pad").scrollIntoViewIfNeeded();
    const pad = await page.locator("#pad").boundingBox();
    await page.mouse.move(pad.x + 20, pad.y + pad.height * 0.7);
    await page.mouse.down();
    for (let i = 1; i <= 30; i++) {
      const x = pad.x + 20 + i * (pad.width - 40) / 30;
      const y = pad.y + pad.height * (0.5 + 0.3 * Math.sin(i / 3));
      await page.mouse.move(x, y, { steps: 2 });
    }
    await page.mouse.up();
    await form.locator("input[name=consent]").check();
    await shot("drawn");
    await Promise.all([landed(), form.locator("button[type=submit]").click()]);
  } else if (args.action === "upload") {
    for (const [i, file] of args.uploads.entries()) {
      const form = page.locator("#upload-form");
      await form.locator("#signature-file").setInputFiles(file);
      await form.locator("input[name=consent]").check();
      const last = i === args.uploads.length - 1;
      if (last) {
        await shot("upload-good");
        await Promise.all([landed(), form.locator("button[type=submit]").click()]);
      } else {
        await Promise.all([page.waitForNavigation(), form.locator("button[type=submit]").click()]);
        const error = page.locator("#error");
        messages.push((await error.count()) ? (await error.innerText()).trim() : "");
        await shot(`upload-refused-${i + 1}`);
      }
    }
  } else if (args.action === "cancel") {
    await Promise.all([landed(), page.locator("form.cancel button[type=submit]").click()]);
  } else {
    throw new Error(`unknown action ${args.action}`);
  }
  await page.waitForLoadState("load");
  await shot("result");
  console.log(JSON.stringify({ finalUrl: page.url(), messages, screenshots }));
} finally {
  await browser.close();
}
