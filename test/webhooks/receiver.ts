import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A webhook receiver on loopback whose answers a test chooses; it records every request as received. */
export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  status: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** The status to answer next (default 200), or a function of the request count. */
  respond: (n: number) => number;
  close(): Promise<void>;
}

export async function startReceiver(port = 0): Promise<Receiver> {
  const r: Receiver = { url: "", received: [], respond: () => 200, close: async () => undefined };
  const server: Server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (d: string) => (body += d));
    req.on("end", () => {
      const status = r.respond(r.received.length + 1);
      r.received.push({ headers: req.headers, body, status });
      res.writeHead(status, { "content-type": "text/plain" });
      res.end(status < 300 ? "ok" : "not now");
    });
  });
  await new Promise<void>((ok) => server.listen(port, "127.0.0.1", ok));
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/timbre`;
  r.close = () => new Promise<void>((ok) => server.close(() => ok()));
  return r;
}
