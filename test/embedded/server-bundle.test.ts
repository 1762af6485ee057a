import { readdirSync, readFileSync } from "node:fs";
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

  it("runs workflows without loading the AWS Lambda client or the ASL validator (stubbed in the bundled aws-local-stepfunctions)", async () => {
    await ensureServerBundle();
    const chunk = readdirSync(SERVER_DIR).find((f) => /^chunk-main\.node\.esm-.*\.js$/.test(f));
    expect(chunk, "aws-local-stepfunctions is bundled into a chunk of its own").toBeDefined();
    const loads = staticPackages(chunk!);
    expect([...loads]).toContain("jsonpath-plus");
    for (const p of ["@aws-sdk/client-lambda", "@aws-sdk/credential-providers", "asl-validator"]) expect([...loads]).not.toContain(p);
    // The stubs say so if a run ever reaches them; a state machine built without validation runs.
    const { StateMachine } = (await import(join(SERVER_DIR, chunk!))) as { StateMachine: new (d: unknown, o: unknown) => { run(i: unknown, o?: unknown): { result: Promise<unknown> } } };
    const pass = new StateMachine({ StartAt: "P", States: { P: { Type: "Pass", Result: { ok: 1 }, End: true } } }, { validationOptions: { noValidate: true } });
    await expect(pass.run({}).result).resolves.toEqual({ ok: 1 });
    const lambda = new StateMachine({ StartAt: "T", States: { T: { Type: "Task", Resource: "arn:aws:lambda:us-east-1:123456789012:function:f", End: true } } }, { validationOptions: { noValidate: true } });
    await expect(lambda.run({}).result).rejects.toThrow(/does not use AWS Lambda/);
    expect(() => new StateMachine({ StartAt: "P", States: {} }, {})).toThrow(/does not use the ASL validator/);
  });
});
