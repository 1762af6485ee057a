/**
 * The upload client of `npm run bench -- --only=pvc`, in a process of its own like a browser:
 * reads the file, then sends the PUTs it is given on standard input (one JSON job per line:
 * `{ puts: [{ url, headers, from, to }] }`) one after another, and answers each job with a line
 * `{ ms }`, the time from its first byte sent to its last response.
 */
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";

const file = readFileSync(process.argv[2]!);
interface Put {
  url: string;
  headers: Record<string, string>;
  from: number;
  to: number;
}
process.stdout.write(JSON.stringify({ ready: true }) + "\n");
for await (const line of createInterface({ input: process.stdin })) {
  const { puts } = JSON.parse(line) as { puts: Put[] };
  const t = performance.now();
  for (const p of puts) {
    const r = await fetch(p.url, { method: "PUT", body: file.subarray(p.from, p.to), headers: p.headers });
    if (!r.ok) throw new Error(`PUT ${r.status}: ${await r.text()}`);
    await r.arrayBuffer();
  }
  process.stdout.write(JSON.stringify({ ms: performance.now() - t }) + "\n");
}
