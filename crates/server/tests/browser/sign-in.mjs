// Signs in on Signet's own sign-in page in Debian's headless Chromium for the Rust tests
// (crates/server/tests/e2e/sso.rs): the address, then a password (and authenticator code), a code
// e-mailed to the person, or the organisation's single sign-on.
//
// usage: node sign-in.mjs '<json>'   with json = { start: Signet's /account/sign-in address,
//   email, and one of: password (+ totp) | codeFile: a file the test writes the e-mailed code
//   into (polled for 30 s) | ssoLogin: what to type at the OpenID provider's login form;
//   javaScript: false to run without JavaScript (default true), shots: screenshot directory }
// Prints one JSON line: { finalUrl, status, text, problems, screenshots }.
import { chromium } from "playwright-core";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
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
const origin = new URL(args.start).origin;

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
  // A refused step answers its page with a 4xx status, which Chromium also logs; the status is
  // reported (and checked) on its own.
  page.on("console", (m) => {
    if (m.type() === "error" && page.url().startsWith(origin) && !m.text().startsWith("Failed to load resource: the server responded with a status of 4")) {
      problems.push(`console: ${m.text()}`);
    }
  });
  page.on("requestfailed", (r) => { if (r.url().startsWith(origin)) problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`); });
  page.on("response", (r) => { if (r.request().isNavigationRequest() && r.frame() === page.mainFrame()) lastStatus = r.status(); });
  const shot = async (name) => {
    const path = join(args.shots, `${screenshots.length + 1}-${name}.png`);
    await page.screenshot({ path, fullPage: true });
    screenshots.push(path);
  };
  const press = async (locator) => {
    await Promise.all([page.waitForNavigation({ waitUntil: "load" }), locator.click()]);
  };
  await page.goto(args.start);
  await shot("address");
  await page.getByLabel("E-mail address").fill(args.email);
  await press(page.getByRole("button", { name: "Continue" }));
  await shot("methods");
  if (args.password !== undefined) {
    await page.getByLabel("Password").fill(args.password);
    if (args.totp) await page.getByLabel(/Authenticator app code/).fill(args.totp);
    await press(page.getByRole("button", { name: "Sign in", exact: true }));
  } else if (args.codeFile) {
    await press(page.getByRole("button", { name: "E-mail me a code" }));
    await shot("code");
    let code = "";
    for (let i = 0; i < 300 && !code; i++) {
      code = existsSync(args.codeFile) ? readFileSync(args.codeFile, "utf8").trim() : "";
      if (!code) await new Promise((r) => setTimeout(r, 100));
    }
    await page.getByLabel(/six-digit code/).fill(code);
    await press(page.getByRole("button", { name: "Sign in", exact: true }));
  } else if (args.ssoLogin) {
    await press(page.locator("#sso"));
    await page.locator("input[name=login]").fill(args.ssoLogin);
    await page.locator("input[name=password]").fill("any password");
    await press(page.locator("button[type=submit]").first());
  }
  await page.waitForLoadState("load");
  await shot("end");
  const text = (await page.locator("body").innerText().catch(() => "")).trim();
  console.log(JSON.stringify({ finalUrl: page.url(), status: lastStatus, text, problems, screenshots }));
} finally {
  await browser.close();
}
