import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { startTestStack } from "../support/stack.js";
import { CSRF_FAILED_MESSAGE } from "../../web/app/lib/csrf.server.js";

/**
 * The web app's form routes (sign-in, sign-up, invite) with a body no HTML form sends (issue 24):
 * JSON and text/plain pass the web handler (the pages' own fetches use them) but are no form, so
 * the action answers 415, and a form that does not parse 400, never a 500.
 */
let stack: EmbeddedStack;
beforeAll(async () => {
  stack = await startTestStack({ web: true });
});
afterAll(async () => stack?.close());

const ROUTES = ["/sign-in", "/sign-up", "/invite/some-invite-token"];
const post = (path: string, type: string, body: string) => fetch(new URL(path, stack.url), { method: "POST", headers: { "content-type": type }, body });

describe("form routes with a body that is no form", () => {
  it("answer 415 to JSON and text/plain", async () => {
    for (const path of ROUTES) {
      for (const [type, body] of [
        ["application/json", JSON.stringify({ email: "a@b.c", password: "x".repeat(12) })],
        ["application/json; charset=utf-8", "{}"],
        ["text/plain", "email=a@b.c"],
      ]) {
        const r = await post(path, type, body);
        expect(r.status, `${path} ${type}`).toBe(415);
        await r.arrayBuffer();
      }
    }
  });

  it("answer 400 to a multipart form that does not parse, and still read a real form", async () => {
    for (const path of ROUTES) {
      const broken = await post(path, "multipart/form-data; boundary=xyz", "--xyz\r\nContent-Disposition: form-data; name=\"email\"\r\n\r\nno end");
      expect(broken.status, path).toBe(400);
      await broken.arrayBuffer();
      // A genuine form is read and reaches the CSRF check (no token here).
      const form = await post(path, "application/x-www-form-urlencoded", "email=a%40b.c&password=x");
      expect(form.status, path).toBe(403);
      expect(await form.text()).toContain(CSRF_FAILED_MESSAGE.slice(0, 40));
    }
  });
});
