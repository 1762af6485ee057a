import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { build, type Plugin } from "esbuild";
import type { Browser, Page } from "playwright-core";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { createTestAccount } from "../support/stack.js";
import { closeContext, newContext, openBrowserStack, closeBrowserStack, signIn, visit, watchErrors } from "./helpers.js";

/**
 * The web app's own defences, in a real browser: every page runs under a Content-Security-Policy
 * with a per-response nonce and no violation; forms from other sites and bodies no form sends are
 * refused with 403/415 instead of a 500; odd input ends somewhere useful. And the official SDK
 * works from a web page of another origin (its X-Fern-* headers pass the preflight).
 */
let stack: EmbeddedStack;
let browser: Browser;
beforeAll(async () => ({ stack, browser } = await openBrowserStack()));
afterAll(() => closeBrowserStack(stack, browser));

/** Records CSP violations the page reports, from before its first script runs. */
async function watchCsp(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener("securitypolicyviolation", (e) => w.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  return () => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);
}

describe("content security policy", () => {
  it("sends a nonce-based policy, puts the nonce on every inline script, and nothing is blocked", async () => {
    const account = await createTestAccount(stack, "free");
    const context = await newContext(browser, stack);
    const page = await context.newPage();
    const violations = await watchCsp(page);
    const errors = watchErrors(page);
    const response = await page.goto("/sign-in");
    const policy = response!.headers()["content-security-policy"];
    const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
    expect(nonce).toBeTruthy();
    expect(policy).toContain("frame-ancestors 'none'");
    expect(response!.headers()["x-frame-options"]).toBe("DENY");
    expect(response!.headers()["x-content-type-options"]).toBe("nosniff");
    const html = await response!.text();
    const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>/g)].map((m) => m[1]);
    expect(inline.length).toBeGreaterThan(0);
    for (const attrs of inline) expect(attrs).toContain(`nonce="${nonce}"`);
    // A second response gets another nonce.
    const again = await page.request.get("/sign-in");
    expect(/'nonce-([^']+)'/.exec(again.headers()["content-security-policy"])?.[1]).not.toBe(nonce);

    await signIn(page, account.email, account.password);
    await visit(page, "/app/speech-synthesis/text-to-speech");
    await visit(page, "/app/settings/api-keys");
    expect(await violations()).toEqual([]);
    expect(errors.consoleErrors.filter((e) => /Content Security Policy/i.test(e))).toEqual([]);
    await closeContext(context);
  });
});

describe("form posts and odd input", () => {
  it("refuses a form posted from another site (403) and a body no form sends (415)", async () => {
    const cross = await fetch(`${stack.url}/sign-in`, {
      method: "POST",
      headers: { origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" },
      body: "email=a%40b.c&password=x",
    });
    expect(cross.status).toBe(403);
    const fetchMeta = await fetch(`${stack.url}/sign-in`, {
      method: "POST",
      headers: { "sec-fetch-site": "cross-site", "content-type": "application/x-www-form-urlencoded" },
      body: "email=a%40b.c&password=x",
    });
    expect(fetchMeta.status).toBe(403);
    for (const type of ["application/xml", "image/png"]) {
      const r = await fetch(`${stack.url}/sign-in`, { method: "POST", headers: { "content-type": type }, body: "<x/>" });
      expect(r.status, type).toBe(415);
    }
  });

  it("sends ?voice_id that cannot be an id to the library instead of failing", async () => {
    const account = await createTestAccount(stack, "free");
    const context = await newContext(browser, stack);
    const page = await context.newPage();
    await signIn(page, account.email, account.password);
    for (const id of [".", "..", "x".repeat(300)]) {
      const r = await page.goto(`/app/speech-synthesis/text-to-speech?voice_id=${encodeURIComponent(id)}`);
      expect(r!.status(), id.slice(0, 10)).toBeLessThan(500);
      expect(page.url()).toContain("/app/voice-library");
    }
    await closeContext(context);
  });

  it("answers a dictionary save with rules that are not JSON with 400", async () => {
    const account = await createTestAccount(stack, "pro");
    const context = await newContext(browser, stack);
    const page = await context.newPage();
    await signIn(page, account.email, account.password);
    const created = await fetch(`${stack.url}/v1/pronunciation-dictionaries/add-from-rules`, {
      method: "POST",
      headers: { "xi-api-key": account.apiKey, "content-type": "application/json" },
      body: JSON.stringify({ name: "Names", rules: [] }),
    }).then((r) => r.json() as Promise<{ id: string }>);
    await visit(page, "/app/speech-synthesis/text-to-speech");
    // The page's form token, as the dictionary editor sends it.
    const csrf = await page.evaluate(() => (window as unknown as { __remixContext: { state: { loaderData: { root: { csrf: string } } } } }).__remixContext.state.loaderData.root.csrf);
    const r = await page.request.post(`/app/dictionaries/${created.id}`, {
      headers: { accept: "application/json" },
      multipart: { intent: "save", rules: "{not json", csrf },
    });
    expect(r.status()).toBe(400);
    await closeContext(context);
  });
});

/** esbuild resolves the SDK's Node-only helpers (play(), the speech engine server) to stubs. */
const stubNode: Plugin = {
  name: "stub-node",
  setup(b) {
    b.onResolve({ filter: /^node:|^(fs|path|os|stream|events|http|https|crypto|child_process|url|util|buffer)$/ }, (a) => ({ path: a.path, namespace: "stub" }));
    b.onLoad({ filter: /.*/, namespace: "stub" }, () => ({ contents: "class EventEmitter { on() { return this; } emit() {} } module.exports = { EventEmitter, default: EventEmitter };", loader: "js" }));
  },
};

describe("the official SDK in a browser", () => {
  let site: Server;
  afterAll(() => site?.close());

  it("lists models and voices and converts text from a page on another origin", async () => {
    const bundle = await build({
      stdin: { contents: 'export { ElevenLabsClient } from "@elevenlabs/elevenlabs-js";', resolveDir: process.cwd() },
      bundle: true,
      format: "iife",
      globalName: "SDK",
      platform: "browser",
      minify: true,
      write: false,
      logLevel: "error",
      plugins: [stubNode],
    });
    const js = bundle.outputFiles[0].text;
    // Another origin than the API's (127.0.0.1 vs localhost), both loopback.
    site = createServer((req, res) => {
      if (req.url === "/sdk.js") {
        res.writeHead(200, { "content-type": "text/javascript" });
        res.end(js);
      } else {
        res.writeHead(200, { "content-type": "text/html" });
        res.end('<!doctype html><html><body><script src="/sdk.js"></script></body></html>');
      }
    });
    await new Promise<void>((r) => site.listen(0, "127.0.0.1", r));
    const siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
    const account = await createTestAccount(stack, "creator");
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(siteUrl);
    const result = await page.evaluate(
      async ({ baseUrl, apiKey }) => {
        const { ElevenLabsClient } = (window as unknown as { SDK: { ElevenLabsClient: new (o: object) => any } }).SDK;
        const client = new ElevenLabsClient({ baseUrl, apiKey, maxRetries: 0 });
        const models = await client.models.list();
        const voices = await client.voices.search({ pageSize: 5 });
        const audio = await client.textToSpeech.convert(voices.voices[0].voiceId, { text: "Hello from a browser.", outputFormat: "mp3_22050_32" });
        let bytes = 0;
        const reader = audio.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          bytes += value.byteLength;
        }
        return { origin: location.origin, models: models.length, voices: voices.voices.length, bytes };
      },
      { baseUrl: stack.url, apiKey: account.apiKey },
    );
    expect(result.origin).not.toBe(new URL(stack.url).origin);
    expect(result.models).toBeGreaterThan(3);
    expect(result.voices).toBe(5);
    expect(result.bytes).toBeGreaterThan(1000);
    await context.close();
  });
});
