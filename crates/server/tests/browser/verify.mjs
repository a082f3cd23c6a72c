// Uploads a file to Signet's public verification page in Debian's headless Chromium for the
// Rust tests (crates/server/tests/e2e/verification.rs) and reads the verdicts.
//
// usage: node verify.mjs '<json>'   with json = { page: Signet's /verify address, file: the
//   path to upload, javaScript: false to run without JavaScript (default true), shots: screenshot
//   directory }
// Prints one JSON line: { status, text, signatures: [{ heading, text }], problems, screenshots }.
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
let lastStatus = 0;

const browser = await chromium.launch({
  executablePath,
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  const context = await browser.newContext({
    javaScriptEnabled: args.javaScript !== false,
    viewport: { width: 412, height: 915 }, // a phone
  });
  const page = await context.newPage();
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("requestfailed", (r) => problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`));
  page.on("response", (r) => { if (r.request().isNavigationRequest() && r.frame() === page.mainFrame()) lastStatus = r.status(); });
  const shot = async (name) => {
    const path = join(args.shots, `${screenshots.length + 1}-${name}.png`);
    await page.screenshot({ path, fullPage: true });
    screenshots.push(path);
  };
  await page.goto(args.page);
  await page.getByLabel("The signed file").setInputFiles(args.file);
  await Promise.all([page.waitForNavigation({ waitUntil: "load" }), page.getByRole("button", { name: "Check" }).click()]);
  await shot("verdict");
  // Nothing may stick out sideways on a phone.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1).catch(() => false);
  if (overflow) problems.push("the page is wider than the phone's screen");
  const text = (await page.locator("body").innerText()).trim();
  const signatures = [];
  for (const article of await page.locator("article.signature").all()) {
    signatures.push({ heading: (await article.locator("h2").innerText()).trim(), text: (await article.innerText()).trim() });
  }
  console.log(JSON.stringify({ status: lastStatus, text, signatures, problems, screenshots }));
} finally {
  await browser.close();
}
