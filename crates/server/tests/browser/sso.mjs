// Signs in through single sign-on in Debian's headless Chromium for the Rust tests
// (crates/server/tests/e2e/sso.rs): opens Signet's start address, signs in at the OpenID provider's
// login form and follows the redirects back through Signet to the application.
//
// usage: node sso.mjs '<json>'   with json = { start: Signet's /sso/{id}/start address,
//   login: what to type as the provider's login, shots: directory for screenshots,
//   javaScript: false to run with JavaScript disabled (default true),
//   totp: the authenticator code to give should Signet ask for it (optional) }
// Prints one JSON line: { finalUrl, status: the last page's HTTP status, title, text: the last
//   page's text, problems: [page errors and failed requests], screenshots }.
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
  const context = await browser.newContext({ javaScriptEnabled: args.javaScript !== false });
  const page = await context.newPage();
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  // Only Signet's own pages count: the provider's development login page asks for web fonts,
  // which a machine without the internet cannot load.
  page.on("requestfailed", (r) => { if (r.url().startsWith(new URL(args.start).origin)) problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`); });
  page.on("response", (r) => { if (r.request().isNavigationRequest() && r.frame() === page.mainFrame()) lastStatus = r.status(); });
  const shot = async (name) => {
    const path = join(args.shots, `${screenshots.length + 1}-${name}.png`);
    await page.screenshot({ path, fullPage: true });
    screenshots.push(path);
  };
  await page.goto(args.start);
  // The provider's development login form (any login, any password).
  const login = page.locator("input[name=login]");
  if (await login.count()) {
    await shot("provider-login");
    await login.fill(args.login);
    await page.locator("input[name=password]").fill("any password");
    await Promise.all([page.waitForLoadState("load"), page.locator("button[type=submit]").first().click()]);
    await page.waitForLoadState("load");
  }
  // A consent screen, should the provider show one.
  const consent = page.locator("button[type=submit]", { hasText: "Continue" });
  if (await consent.count()) {
    await Promise.all([page.waitForLoadState("load"), consent.click()]);
    await page.waitForLoadState("load");
  }
  // Signet's page for the authenticator code, when the account still owes it and the test
  // gives one.
  const totp = page.locator("input[name=totp]");
  if (args.totp && await totp.count()) {
    await shot("second-factor");
    await totp.fill(args.totp);
    await Promise.all([page.waitForLoadState("load"), page.locator("button[type=submit]").first().click()]);
    await page.waitForLoadState("load");
  }
  await shot("end");
  const text = (await page.locator("body").innerText().catch(() => "")).trim();
  console.log(JSON.stringify({ finalUrl: page.url(), status: lastStatus, title: await page.title(), text, problems, screenshots }));
} finally {
  await browser.close();
}
