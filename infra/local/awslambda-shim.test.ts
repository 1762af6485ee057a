import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { LocalResponseStream } from "./awslambda-shim.js";

describe("LocalResponseStream", () => {
  it("is closed at once when its client left before it was made (the handler's abort signal fires)", async () => {
    let made: (res: ServerResponse) => void;
    const left = new Promise<ServerResponse>((r) => (made = r));
    const server = createServer(async (req, res) => {
      for await (const _ of req);
      // The client leaves while the request is still before its handler.
      while (!res.destroyed) await new Promise((r) => setTimeout(r, 10));
      made(res);
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const leave = new AbortController();
      const sent = fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/x`, { method: "POST", body: "{}", signal: leave.signal }).catch((e: Error) => e.name);
      setTimeout(() => leave.abort(), 50);
      expect(await sent).toBe("AbortError");
      const stream = new LocalResponseStream(await left);
      // What createApiStreamingHandler listens for, attached right after the stream is made.
      let closed = false;
      stream.once("close", () => (closed = true));
      await new Promise((r) => setImmediate(r));
      expect(stream.destroyed).toBe(true);
      expect(closed).toBe(true);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  it("stays open for a client that is still there", async () => {
    const server = createServer(async (req, res) => {
      for await (const _ of req);
      const stream = new LocalResponseStream(res);
      await new Promise((r) => setImmediate(r));
      stream.end(stream.destroyed ? "destroyed" : "open");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const r = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/x`, { method: "POST", body: "{}" });
      expect(await r.text()).toBe("open");
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
