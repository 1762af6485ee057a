import { describe, expect, it } from "vitest";
import { Router } from "./router.js";
import { json } from "./types.js";

const h = (name: string) => async () => json({ name });

describe("router", () => {
  const r = new Router<unknown>()
    .get("/v1/voices/:voice_id", h("voice"))
    .get("/v1/voices/settings/default", h("defaults"))
    .delete("/v1/voices/:voice_id", h("delete"));

  it("prefers static segments over parameters whatever the registration order", () => {
    const m = r.match("GET", "/v1/voices/settings/default");
    expect(m).not.toBe("not_found");
    expect(typeof m === "object" && "params" in m && Object.keys(m.params)).toEqual([]);
  });

  it("refuses a route registered twice, whatever its parameters are called", () => {
    const twice = new Router<unknown>().post("/v1/voices/pvc/:voice_id/captcha", h("a"));
    expect(() => twice.post("/v1/voices/pvc/:id/captcha", h("b"))).toThrow("route registered twice: POST /v1/voices/pvc/:id/captcha");
    expect(() => twice.get("/v1/voices/pvc/:voice_id/captcha", h("c"))).not.toThrow();
  });

  it("decodes parameters", () => {
    const m = r.match("GET", "/v1/voices/a%2Db");
    expect(typeof m === "object" && "params" in m && m.params.voice_id).toBe("a-b");
  });

  it("names the parameter that cannot be an id: malformed escapes, overlong or odd values", () => {
    for (const bad of ["%ff", "%zz", "a%20b", "x".repeat(1018), "a%2Fb", "%00"]) {
      const m = r.match("GET", `/v1/voices/${bad}`);
      expect(typeof m === "object" && "invalidParam" in m && m.invalidParam, bad).toBe("voice_id");
    }
  });

  it("tells a missing path from a wrong method", () => {
    expect(r.match("GET", "/v1/nothing")).toBe("not_found");
    expect(r.match("PATCH", "/v1/voices/x")).toBe("method_not_allowed");
  });
});
