// WCAG 2.1 A and AA checks of the page as it is now, by axe-core (the Deque engine that
// browsers' accessibility audits use), run inside the page from the locally installed package:
// no network, the same rules on every run. Used by every driver's `inspect`, so each page a
// journey passes through is audited on a phone's screen.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

// The rules of WCAG 2.0 and 2.1 at levels A and AA; best-practice rules are not failures.
const RUN_ONLY = { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] };

/** One line per violated rule and element: rule, impact, where, and axe's own summary. */
export async function wcagViolations(page) {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async (runOnly) => {
    const result = await window.axe.run(document, { runOnly, resultTypes: ["violations"] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.map((n) => ({ target: n.target.join(" "), summary: n.failureSummary })),
    }));
  }, RUN_ONLY);
  const lines = [];
  for (const v of violations) {
    for (const n of v.nodes) {
      lines.push(`WCAG ${v.id} (${v.impact}) at ${n.target}: ${(n.summary || "").replace(/\s+/g, " ").trim()}`);
    }
  }
  return lines;
}
