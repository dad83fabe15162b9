// Drives nexus-mcp's viewer in headless Chromium (Debian's, through playwright-core) and checks
// what a person would see. Run by tests/viewer.rs with one JSON argument:
//   {"base": "http://127.0.0.1:PORT", "chromium": "/usr/bin/chromium", "modules": NODE_MODULES_DIR,
//    "screenshots": DIR|null, "cookie": {"name", "value"}|null,
//    "visits": [{"path": "/docs/ws", "expect": [{"selector": "#x", "text": "76"}],
//                "count": [{"selector": "svg .edge.cycle", "min": 2}],
//                "click": "svg a.node[data-id='A']", "arrive": "/docs/ws/node/A",
//                "screenshot": "audit.png"}]}
// Every visit fails on a dialog, a console error, an uncaught page error, or any request other
// than the page itself and the viewer's stylesheet. Prints one line per visit; exits 1 on a
// failed expectation.
import { createRequire } from "node:module";

const spec = JSON.parse(process.argv[2]);
// playwright-core is installed by .ci/setup beside the other npm tools, not next to this file.
const { chromium } = createRequire(`${spec.modules}/`)("playwright-core");
const browser = await chromium.launch({
  executablePath: spec.chromium,
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const failures = [];
const fail = (visit, message) => failures.push(`${visit.path}: ${message}`);

for (const visit of spec.visits) {
  const context = await browser.newContext({ viewport: { width: 1300, height: 1000 } });
  if (spec.cookie) {
    await context.addCookies([{ name: spec.cookie.name, value: spec.cookie.value, url: spec.base }]);
  }
  const page = await context.newPage();
  const allowed = new Set(["/assets/view.css", "/assets/favicon.svg"].map((p) => new URL(p, spec.base).href));
  allowed.add(new URL(visit.path, spec.base).href);
  if (visit.arrive) allowed.add(new URL(visit.arrive, spec.base).href);
  page.on("dialog", async (d) => { fail(visit, `a dialog opened: ${d.type()} ${d.message()}`); await d.dismiss(); });
  // A page asked for with an error status is logged as such by the browser: that one is expected.
  const expected = visit.status ? `status of ${visit.status} ` : null;
  page.on("console", (m) => {
    if (m.type() === "error" && !(expected && m.text().includes(expected))) fail(visit, `console error: ${m.text()}`);
  });
  page.on("pageerror", (e) => fail(visit, `page error: ${e.message}`));
  page.on("request", (r) => {
    const url = r.url().split("#")[0];
    const base = url.split("?")[0];
    if (!allowed.has(url) && !allowed.has(base)) fail(visit, `unexpected request: ${r.method()} ${r.url()}`);
  });
  const response = await page.goto(new URL(visit.path, spec.base).href);
  if (!response || response.status() !== (visit.status ?? 200)) {
    fail(visit, `status ${response && response.status()}, expected ${visit.status ?? 200}`);
  }
  for (const e of visit.expect ?? []) {
    const el = page.locator(e.selector).first();
    const text = (await el.count()) ? (await el.innerText()).trim() : null;
    if (e.text !== undefined && text !== e.text) fail(visit, `${e.selector}: "${text}", expected "${e.text}"`);
    if (e.contains !== undefined && !(text ?? "").includes(e.contains)) fail(visit, `${e.selector}: "${text}" lacks "${e.contains}"`);
  }
  for (const c of visit.count ?? []) {
    const n = await page.locator(c.selector).count();
    if (c.n !== undefined && n !== c.n) fail(visit, `${c.selector}: ${n} elements, expected ${c.n}`);
    if (c.min !== undefined && n < c.min) fail(visit, `${c.selector}: ${n} elements, expected at least ${c.min}`);
  }
  if (spec.screenshots && visit.screenshot) {
    await page.screenshot({ path: `${spec.screenshots}/${visit.screenshot}`, fullPage: false });
  }
  if (visit.click) {
    await Promise.all([page.waitForURL((u) => u.pathname === new URL(visit.arrive, spec.base).pathname), page.locator(visit.click).first().click()]);
  }
  console.log(`visited ${visit.path}${visit.click ? ` and clicked ${visit.click}` : ""}`);
  await context.close();
}
await browser.close();
if (failures.length) {
  for (const f of failures) console.error(`FAILED: ${f}`);
  process.exit(1);
}
console.log("browser: all expectations held");
