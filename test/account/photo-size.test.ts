import { afterAll, beforeAll, describe, expect, it } from "vitest";
import jpeg from "jpeg-js";
import type { EmbeddedStack } from "../../infra/local/stack.js";
import { createTestAccount, startTestStack } from "../support/stack.js";
import { accountMessages } from "../../functions/capabilities/account/service.js";
import { MAX_PHOTO_SIDE } from "../../functions/capabilities/account/photo-work.js";
import { bearerFor, signInSession } from "./support.js";

/**
 * A large but valid JPEG profile photo (issue 24): one the size check admits is decoded and
 * shrunk; a larger one is refused with the size limit's own message, never as "unreadable".
 */
let stack: EmbeddedStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => stack?.close());

/** A valid baseline JPEG (jpeg-js writes 3 components at full resolution, the decoder's heaviest common case). */
function bigJpeg(side: number): Uint8Array<ArrayBuffer> {
  const data = new Uint8Array(side * side * 4);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) data.set([x & 255, y & 255, 128, 255], (y * side + x) * 4);
  }
  return Uint8Array.from(jpeg.encode({ data, width: side, height: side }, 50).data);
}

async function upload(bytes: Uint8Array<ArrayBuffer>) {
  const acct = await createTestAccount(stack);
  const as = bearerFor(stack, (await signInSession(stack, acct.email, acct.password)).body);
  const r = await as("/v1/user/photo", { method: "PUT", body: bytes, headers: { "content-type": "image/jpeg" } });
  return { status: r.status, body: (await r.json()) as { photo_url?: string; detail?: { status: string; message: string } } };
}

describe("a large JPEG profile photo", () => {
  it("refuses a valid 6000x6000 JPEG with the size limit's message", { timeout: 120_000 }, async () => {
    const bytes = bigJpeg(6000);
    expect(bytes.byteLength).toBeLessThan(5 * 1024 * 1024);
    const r = await upload(bytes);
    expect(r.status).toBe(400);
    expect(r.body.detail).toEqual({ status: "photo_dimensions", message: accountMessages.photoTooLarge(MAX_PHOTO_SIDE) });
  });

  it("accepts and shrinks a valid JPEG of the largest size the limit admits", { timeout: 120_000 }, async () => {
    const r = await upload(bigJpeg(MAX_PHOTO_SIDE));
    expect(r.body.detail).toBeUndefined();
    expect(r.status).toBe(200);
    const served = await fetch(new URL(r.body.photo_url!, stack.url));
    const img = jpeg.decode(new Uint8Array(await served.arrayBuffer()));
    expect([img.width, img.height]).toEqual([256, 256]);
  });
});
