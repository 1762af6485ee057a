import { describe, expect, it } from "vitest";
import { parseConfig } from "../config.js";
import { createPresigner, EMBEDDED_STORAGE_ACCESS_KEY, embeddedStorageSecret } from "../adapters/presign.js";
import { verifyPresigned, type PresignedRequest } from "./sigv4.js";

/** URLs from the AWS SDK's own presigner, checked by our verifier as the embedded front does. */
const cfg = { ...parseConfig({ PORT: "0" }), mode: "embedded" as const };
const secret = "s".repeat(40);
const key = { accessKeyId: EMBEDDED_STORAGE_ACCESS_KEY, secretAccessKey: embeddedStorageSecret(secret), region: cfg.aws.region };
const presigner = createPresigner(cfg, "timbre-data", secret, "http://localhost:3000");

function request(url: string, method: string, headers: Record<string, string> = {}): PresignedRequest {
  const u = new URL(url);
  return { method, path: u.pathname, query: u.searchParams, headers: { host: u.host, ...headers } };
}

describe("presigned URLs on the embedded origin", () => {
  it("point at the product's /storage path and carry no checksum of an empty body", async () => {
    const url = new URL(await presigner.put("tmp/ws/a/u1/voice sample (1).wav", "audio/wav", 1234, 900));
    expect(url.origin).toBe("http://localhost:3000");
    expect(url.pathname).toBe("/storage/timbre-data/tmp/ws/a/u1/voice%20sample%20%281%29.wav");
    expect(url.searchParams.has("x-amz-checksum-crc32")).toBe(false);
    expect(url.searchParams.get("X-Amz-SignedHeaders")).toBe("content-length;content-type;host");
  });

  it("verify for the signed method, key, type and length until they expire", async () => {
    const url = await presigner.put("tmp/ws/a/u1/voice sample (1).wav", "audio/wav", 1234, 900);
    const ok = request(url, "PUT", { "content-type": "audio/wav", "content-length": "1234" });
    expect(verifyPresigned(ok, key, Date.now(), ["content-length"])).toMatchObject({ ok: true });
    expect(verifyPresigned(ok, key, Date.now() + 901_000)).toEqual({ ok: false, reason: "expired" });
  });

  it("refuse another length, type, method, key or a tampered query", async () => {
    const url = await presigner.put("tmp/ws/a/u1/a.wav", "audio/wav", 1234, 900);
    const h = { "content-type": "audio/wav", "content-length": "1234" };
    expect(verifyPresigned(request(url, "PUT", { ...h, "content-length": "1235" }), key, Date.now())).toEqual({ ok: false, reason: "signature" });
    expect(verifyPresigned(request(url, "PUT", { ...h, "content-type": "text/html" }), key, Date.now())).toEqual({ ok: false, reason: "signature" });
    expect(verifyPresigned(request(url, "POST", h), key, Date.now())).toEqual({ ok: false, reason: "signature" });
    expect(verifyPresigned(request(url.replace("a.wav", "b.wav"), "PUT", h), key, Date.now())).toEqual({ ok: false, reason: "signature" });
    expect(verifyPresigned(request(url.replace("X-Amz-Expires=900", "X-Amz-Expires=90000"), "PUT", h), key, Date.now())).toEqual({ ok: false, reason: "signature" });
    expect(verifyPresigned(request(url, "PUT", h), { ...key, secretAccessKey: "other" }, Date.now())).toEqual({ ok: false, reason: "signature" });
    expect(verifyPresigned(request(url.split("?")[0], "PUT", h), key, Date.now())).toEqual({ ok: false, reason: "missing" });
  });

  it("bind a multipart part to its upload, number and length", async () => {
    const url = await presigner.uploadPart("tmp/ws/a/u1/a.wav", "upload-1", 3, 5_000_000, 900);
    const h = { "content-length": "5000000" };
    expect(verifyPresigned(request(url, "PUT", h), key, Date.now(), ["content-length"])).toMatchObject({ ok: true });
    expect(verifyPresigned(request(url.replace("partNumber=3", "partNumber=4"), "PUT", h), key, Date.now())).toEqual({ ok: false, reason: "signature" });
  });

  it("sign downloads without upload headers, with the response type and file name", async () => {
    const url = await presigner.get("ws/a/voices/v/samples/s.wav", 7200, { contentType: "audio/wav", fileName: "my take.wav" });
    const u = new URL(url);
    expect(u.searchParams.get("response-content-type")).toBe("audio/wav");
    expect(verifyPresigned(request(url, "GET"), key, Date.now())).toMatchObject({ ok: true });
  });
});
