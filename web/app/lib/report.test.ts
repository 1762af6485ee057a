import { describe, expect, it } from "vitest";
import { clientErrorReport } from "./report.js";

describe("a client error report", () => {
  it("carries the error's name, message and stack, bounded as the server keeps them", () => {
    const e = new TypeError("x is undefined");
    const r = clientErrorReport(e, { fatal: true, where: "root" }, "/app");
    expect(r).toMatchObject({ message: "TypeError: x is undefined", where: "root", fatal: true, kind: "render", path: "/app" });
    expect(r.stack).toContain("x is undefined");
    const long = clientErrorReport("y".repeat(5000), { fatal: false, where: "w".repeat(500), kind: "unhandled_rejection" }, "/p".repeat(900));
    expect([long.message.length, long.where.length, long.path.length]).toEqual([2000, 200, 1000]);
    expect(long.kind).toBe("unhandled_rejection");
  });

  it("writes what is not an Error as JSON, and never an empty message", () => {
    expect(clientErrorReport({ code: 7 }, { fatal: false, where: "w" }, "/").message).toBe('{"code":7}');
    expect(clientErrorReport("", { fatal: false, where: "w" }, "/").message).toBe("Unknown error");
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(clientErrorReport(cyclic, { fatal: false, where: "w" }, "/").message).toBe("[object Object]");
  });
});
