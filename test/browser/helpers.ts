import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type Download, type Page, type Request } from "playwright-core";
import { expect, inject, type ExpectStatic } from "vitest";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { startTestStack } from "../support/stack.js";
import { CHROMIUM, CHROMIUM_ARGS } from "../support/chromium.js";

/**
 * A Chromium for a test file (test/support/chromium.ts). Without a microphone: the run's shared Chromium (one launched by
 * test/support/global-setup.ts, which every file connects to; `close()` closes only this file's
 * profiles), or a launch of its own when run outside the suite's global setup.
 * With `microphone`, its own launch, as the WAV is a launch flag: its microphone plays that file
 * (the fake device starts the file when capture starts) and media permissions are granted without
 * a prompt; with `askPermission` too, the permission is each profile's:
 * `newContext(..., { microphone: true })` grants it and any other profile is refused (what a user
 * who answers Block gets).
 */
export function launchChromium(opts: { microphone?: string; askPermission?: boolean } = {}): Promise<Browser> {
  const args = [...CHROMIUM_ARGS];
  if (!opts.microphone) {
    const shared = inject("chromiumEndpoint");
    if (shared) return chromium.connect(shared);
  }
  if (opts.microphone) {
    if (!opts.askPermission) args.push("--use-fake-ui-for-media-stream");
    args.push("--use-fake-device-for-media-stream", `--use-file-for-fake-audio-capture=${opts.microphone}`, "--autoplay-policy=no-user-gesture-required");
  }
  return chromium.launch({ executablePath: CHROMIUM, args });
}

const inflight = new WeakMap<BrowserContext, Set<Request>>();

/**
 * Closes a browser profile once its requests have finished. Remix fetches route manifests in the
 * background after each navigation; aborting one while it streams makes the embedded server
 * write to a dead socket, which its local response stream does not handle yet (an uncaught EPIPE).
 */
export async function closeContext(context: BrowserContext, ex: ExpectStatic = expect): Promise<void> {
  await settle(context, ex);
  await context.close();
}

/**
 * Waits until the profile has no request in flight (a reload or goto would abort them). A
 * concurrent test passes its own `expect` (the test context's), so a failure is its own.
 */
export async function settle(context: BrowserContext, ex: ExpectStatic = expect): Promise<void> {
  const pending = inflight.get(context);
  if (pending) await ex.poll(() => pending.size, { timeout: 5000 }).toBe(0);
}

/** page.goto after in-flight requests finish, then waits for hydration. */
export async function visit(page: Page, path: string, ex: ExpectStatic = expect): Promise<void> {
  await settle(page.context(), ex);
  await page.goto(path);
  await hydrated(page);
}

export async function reload(page: Page, ex: ExpectStatic = expect): Promise<void> {
  await settle(page.context(), ex);
  await page.reload();
  await hydrated(page);
}

/**
 * A fresh browser profile (cookies, localStorage) on the stack's origin; `microphone` grants it
 * the microphone (needed only in a browser launched with `askPermission`).
 */
export async function newContext(browser: Browser, stack: EmbeddedStack, opts: { width?: number; height?: number; microphone?: boolean } = {}): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: stack.url, viewport: { width: opts.width ?? 1280, height: opts.height ?? 800 } });
  if (opts.microphone) await context.grantPermissions(["microphone"], { origin: stack.url });
  context.setDefaultTimeout(10_000);
  const pending = new Set<Request>();
  context.on("request", (r) => pending.add(r));
  context.on("requestfinished", (r) => pending.delete(r));
  context.on("requestfailed", (r) => pending.delete(r));
  inflight.set(context, pending);
  return context;
}

/** Collects uncaught page errors, so a test can assert there were none (or that one was reported). */
export function watchErrors(page: Page): { pageErrors: string[]; consoleErrors: string[] } {
  const out = { pageErrors: [] as string[], consoleErrors: [] as string[] };
  page.on("pageerror", (e) => out.pageErrors.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error") out.consoleErrors.push(m.text());
  });
  return out;
}

/** Waits until React has hydrated the page (root.tsx marks <html data-hydrated>). */
export async function hydrated(page: Page): Promise<void> {
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

/**
 * Signs in on `page`; `ex`: a concurrent test's own `expect`. The redirect to /app is awaited for up to 30 s, as the
 * files' other waits on the server's CPU: at load 25-38 the profile's 10 s ran out in screens.test.ts,
 * landing.test.ts and a probe (the password check, the redirect and /app's server render queue behind other
 * processes), failing a test before anything it checks.
 */
export async function signIn(page: Page, email: string, password: string, ex: ExpectStatic = expect): Promise<void> {
  await visit(page, "/sign-in", ex);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/app(\/|$|\?)/, { timeout: 30_000 });
  await ex.poll(() => page.locator("main#main").isVisible()).toBe(true);
}

/** The one stack with the web app and the one Chromium a browser test file uses. */
export async function openBrowserStack(env?: Record<string, string>): Promise<{ stack: EmbeddedStack; browser: Browser }> {
  // TIMBRE_TEST_LOG_LEVEL=debug prints the server's log (test stacks log warnings only) to read a failure's cause.
  const level = process.env.TIMBRE_TEST_LOG_LEVEL;
  const [stack, browser] = await Promise.all([startTestStack({ web: true, env: level ? { LOG_LEVEL: level, ...env } : env }), launchChromium()]);
  return { stack, browser };
}

export async function closeBrowserStack(stack: EmbeddedStack | undefined, browser: Browser | undefined): Promise<void> {
  await browser?.close();
  await stack?.close();
}

/** A download's bytes, read through the browser's connection (`download.path()` is refused when the browser is shared over a connection). */
export async function downloadedBytes(download: Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Runs the tasks given to it at most `n` at a time, in the order given. Concurrent tests of a file
 * use it to overlap their waits (real-time recordings, the server's checks) without all loading the
 * machine at once: five page loads at once on a busy machine ran past the profile's 10 s navigation
 * timeout, and five live readings at once left the server's aligner behind the audio.
 */
export function atMost(n: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (running >= n) await new Promise<void>((go) => waiting.push(go));
    else running++;
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}

/** The same, one at a time (a concurrent test's sign-in and first page load, say). */
export const oneAtATime = () => atMost(1);

/**
 * Moves a paused page clock on in `stepMs` steps until `read()` gives `want` (a fake-time budget of
 * `withinMs` at most). A timer the page sets in a React effect can be set a moment after the change
 * a test waits for (the URL, a toast's text): one `runFor` that happens first passes no timer, and a
 * paused clock never fires it. Stepping also runs a timer that was set late.
 */
export async function runClockUntil<T>(page: Page, read: () => Promise<T> | T, want: T, opts: { stepMs?: number; withinMs?: number } = {}, ex: ExpectStatic = expect): Promise<void> {
  const step = opts.stepMs ?? 100;
  let ran = 0;
  await ex
    .poll(
      async () => {
        const got = await read();
        if (got !== want && ran < (opts.withinMs ?? 5_000)) {
          await page.clock.runFor(step);
          ran += step;
        }
        return got;
      },
      { timeout: 30_000 },
    )
    .toBe(want);
}

/**
 * A full-page screenshot in test-results/screenshots/NAME.png for a reviewer to look at, when the run asks for them
 * (TIMBRE_TEST_SCREENSHOTS=1). Nothing compares them, so a run does not take them by default: in
 * screens.test.ts they were about a sixth of Chromium's CPU (docs/decisions/2026-12-07-browser-page-work.md).
 */
export async function photograph(page: Page, name: string): Promise<void> {
  if (process.env.TIMBRE_TEST_SCREENSHOTS !== "1") return;
  const dir = join(import.meta.dirname, "..", "..", "test-results", "screenshots");
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
}
