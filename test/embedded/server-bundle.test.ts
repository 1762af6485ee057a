import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ensureServerBundle, SERVER_DIR, SERVER_ENTRIES } from "../../scripts/lib/server-bundle.mjs";

/**
 * Packages an entry loads whatever it does: its static imports and top-level awaited imports,
 * followed through our chunks (imports inside functions load only when those run).
 */
function staticPackages(entry: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(join(SERVER_DIR, file), "utf8");
    for (const m of code.matchAll(/^import\s[^;]*?from\s*"([^"]+)";?$|^import\s*"([^"]+)";?$|^await import\("([^"]+)"\);?$/gms)) {
      const spec = m[1] ?? m[2] ?? m[3];
      if (spec.startsWith("./")) visit(spec.slice(2));
      else if (!spec.startsWith("node:")) packages.add(spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]);
    }
  };
  visit(entry);
  return packages;
}

describe("the server bundle", () => {
  it("starts without loading what only a first run needs (aws-cdk-lib renders the cached workflow definitions)", async () => {
    await ensureServerBundle();
    const start = staticPackages("start.js");
    expect(start.size).toBeGreaterThan(0);
    expect([...start]).not.toContain("aws-cdk-lib");
    expect([...start]).not.toContain("constructs");
    // The engine's worker threads load eSpeak and nothing of the server.
    const worker = staticPackages("worker.js");
    expect([...worker]).toContain("espeak-ng");
    for (const p of ["aws-cdk-lib", "@aws-sdk/client-dynamodb", "react", "dynalite"]) expect([...worker]).not.toContain(p);
    expect(Object.keys(SERVER_ENTRIES)).toContain("worker");
  });
});
