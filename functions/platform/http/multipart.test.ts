import { describe, expect, it } from "vitest";
import { ApiError } from "./errors.js";
import { field, parseMultipart } from "./multipart.js";
import { eventToRequest, RAW_BODY, type FunctionUrlEvent } from "./lambda.js";
import type { ApiRequest } from "./types.js";

/** A request as the SDK sends multipart (contract §A4), built with WHATWG FormData. */
async function request(form: FormData): Promise<ApiRequest> {
  const r = new Request("http://x/", { method: "POST", body: form });
  return {
    method: "POST",
    path: "/",
    query: new URLSearchParams(),
    headers: { "content-type": r.headers.get("content-type")! },
    body: Buffer.from(await r.arrayBuffer()),
    requestId: "r",
    sourceIp: "127.0.0.1",
    receivedAt: 0,
    params: {},
  };
}

describe("multipart bodies", () => {
  it("reads repeated files under one name, JSON-encoded object fields and boolean strings", async () => {
    const form = new FormData();
    form.append("name", "My Voice");
    form.append("files", new Blob([new Uint8Array([1, 2, 3])], { type: "audio/wav" }));
    form.append("files", new Blob([new Uint8Array([4, 5])], { type: "audio/mpeg" }), "b.mp3");
    form.append("remove_background_noise", "true");
    form.append("labels", JSON.stringify({ accent: "british" }));
    const parsed = await parseMultipart(await request(form), { maxFileBytes: 10, maxFiles: 5 });
    expect(field(parsed, "name")).toBe("My Voice");
    expect(field(parsed, "remove_background_noise")).toBe("true");
    expect(JSON.parse(field(parsed, "labels")!)).toEqual({ accent: "british" });
    expect(parsed.files.map((f) => [f.field, f.filename, f.contentType, [...f.data], f.truncated])).toEqual([
      ["files", "blob", "audio/wav", [1, 2, 3], false],
      ["files", "b.mp3", "audio/mpeg", [4, 5], false],
    ]);
  });

  it("parses the body from the pieces it arrived in (the local front), wherever they were cut", async () => {
    const form = new FormData();
    form.append("name", "Cut Voice");
    const audio = new Uint8Array(20_000).map((_, i) => (i * 7) % 251);
    form.append("files", new Blob([audio], { type: "audio/wav" }), "a.wav");
    form.append("files", new Blob([audio.subarray(0, 3000)], { type: "audio/wav" }), "b.wav");
    const whole = await request(form);
    const boundary = whole.body.indexOf("\r\n--", 10);
    // Cuts inside a boundary, inside a file, and one byte pieces.
    for (const cuts of [[boundary + 3], [1, 2, 3, 5000, 5001, 16_000], [boundary + 1, boundary + 2, boundary + 3, boundary + 4]]) {
      const pieces: Buffer[] = [];
      let at = 0;
      for (const c of [...cuts, whole.body.length]) {
        pieces.push(whole.body.subarray(at, c));
        at = c;
      }
      const event = { version: "2.0", rawPath: "/", rawQueryString: "", headers: whole.headers, requestContext: { requestId: "r", timeEpoch: 1, http: { method: "POST", path: "/", sourceIp: "127.0.0.1" } }, isBase64Encoded: false } as unknown as FunctionUrlEvent;
      Object.defineProperty(event, RAW_BODY, { value: pieces });
      const req = eventToRequest(event);
      expect(req.bodyChunks).toHaveLength(pieces.length);
      const parsed = await parseMultipart(req, { maxFileBytes: 1 << 20, maxFiles: 5 });
      expect(field(parsed, "name")).toBe("Cut Voice");
      expect(parsed.files.map((f) => [f.filename, f.data.length])).toEqual([["a.wav", 20_000], ["b.wav", 3000]]);
      expect(Buffer.compare(parsed.files[0].data, Buffer.from(audio))).toBe(0);
      // Read on demand, the body is the pieces joined.
      expect(Buffer.compare(req.body, whole.body)).toBe(0);
    }
  });

  it("parses a large body from its pieces a slice at a time, letting the event loop run in between", async () => {
    const form = new FormData();
    form.append("files", new Blob([new Uint8Array(3_000_000).fill(7)], { type: "audio/wav" }), "big.wav");
    const whole = await request(form);
    const log: string[] = [];
    const pieces: Buffer[] = [];
    for (let at = 0; at < whole.body.length; at += 65_536) pieces.push(whole.body.subarray(at, at + 65_536));
    // The parser reads the pieces through this iterator; a ticker notes each turn of the loop.
    const seen = { [Symbol.iterator]: function* () { for (const p of pieces) { log.push("piece"); yield p; } } };
    let ticking = true;
    const tick = () => { log.push("turn"); if (ticking) setImmediate(tick); };
    setImmediate(tick);
    const parsed = await parseMultipart({ ...whole, bodyChunks: seen as unknown as Buffer[] }, { maxFileBytes: 1 << 23, maxFiles: 1 });
    ticking = false;
    expect(parsed.files[0].data.length).toBe(3_000_000);
    // Turns of the loop came between the pieces, not only after the last one.
    const firstTurn = log.indexOf("turn");
    expect(firstTurn).toBeGreaterThan(0);
    expect(log.lastIndexOf("piece")).toBeGreaterThan(firstTurn);
    expect(log.slice(0, firstTurn).length).toBeLessThanOrEqual(8);
  });

  it("marks a file over the size limit as truncated and refuses too many files", async () => {
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(20)]), "big.pls");
    const parsed = await parseMultipart(await request(form), { maxFileBytes: 10, maxFiles: 1 });
    expect(parsed.files[0].truncated).toBe(true);
    expect(parsed.files[0].data.byteLength).toBe(10);
    form.append("file", new Blob(["x"]), "second.pls");
    await expect(parseMultipart(await request(form), { maxFileBytes: 10, maxFiles: 1 })).rejects.toMatchObject({ statusCode: 400, status: "too_many_files" });
  });

  it("refuses a body that is not multipart", async () => {
    const req = { ...(await request(new FormData())), headers: { "content-type": "application/json" } };
    await expect(parseMultipart(req, { maxFileBytes: 10, maxFiles: 1 })).rejects.toBeInstanceOf(ApiError);
  });
});
