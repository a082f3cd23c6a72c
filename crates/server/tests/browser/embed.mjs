// Embedded signing in Debian's headless Chromium for the Rust tests
// (crates/server/tests/e2e/embedding.rs): an integrator's page on its own origin shows a
// signer's turn with Signet's <signet-signing> element; the signer signs inside the frame; the
// page hears `loaded` then `signed`. A page of another origin with an address made for the first
// must not show the frame (the element reports it unreachable).
//
// usage: node embed.mjs '<json>'   with json = { host: the allowed page's address, stranger: the
//   other origin's page, shots: screenshot directory }
// Prints one JSON line: { heard, accent, frameHeight, strangerHeard, problems, screenshots }.
import { chromium } from "playwright-core";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";

const args = JSON.parse(process.argv[2]);
const executablePath = process.env.CHROMIUM || "/usr/bin/chromium";
if (!existsSync(executablePath)) {
  console.error(`no Chromium at ${executablePath}: install Debian's chromium (scripts/install-test-deps.sh) or set CHROMIUM`);
  process.exit(3);
}
mkdirSync(args.shots, { recursive: true });
const problems = [];
const screenshots = [];
const outcome = { heard: [], accent: null, frameHeight: 0, strangerHeard: [] };

const browser = await chromium.launch({
  executablePath,
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const heard = (page) => page.evaluate(() => window.heard || []);
const until = async (page, done, ms) => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (done(await heard(page))) return;
    await page.waitForTimeout(100);
  }
};
try {
  const context = await browser.newContext({ viewport: { width: 1024, height: 900 } });
  const page = await context.newPage();
  const shot = async (p, name) => {
    const path = join(args.shots, `${screenshots.length + 1}-${name}.png`);
    await p.screenshot({ path, fullPage: true });
    screenshots.push(path);
  };
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  await page.goto(args.host);
  await until(page, (h) => h.some((e) => e.type === "loaded" || e.type === "error"), 20000);
  const frame = page.frameLocator("signet-signing iframe");
  const inner = page.frames().find((f) => f.url().includes("/embed/w/"));
  if (!inner) problems.push("no embedded frame");
  outcome.accent = inner ? await inner.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--accent").trim()) : null;
  // Let the frame fit its page before measuring.
  await page.waitForTimeout(300);
  outcome.frameHeight = (await page.locator("signet-signing iframe").boundingBox())?.height || 0;
  await shot(page, "opened");
  await frame.locator("#consent").check();
  await frame.locator("#finish").click();
  await until(page, (h) => h.some((e) => e.type === "signed" || e.type === "error"), 30000);
  // Time for a late (forged or repeated) message to arrive, if any would.
  await page.waitForTimeout(500);
  outcome.heard = await heard(page);
  await shot(page, "signed");

  const other = await context.newPage();
  await other.goto(args.stranger);
  await until(other, (h) => h.length > 0, 15000);
  await other.waitForTimeout(300);
  outcome.strangerHeard = await heard(other);
  await shot(other, "stranger");
} catch (e) {
  problems.push(`driver: ${e.message}`);
} finally {
  await browser.close();
}
console.log(JSON.stringify({ ...outcome, problems, screenshots }));
