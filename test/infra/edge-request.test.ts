import { describe, expect, it } from "vitest";
import { fromEdge } from "../../functions/handlers/lambda/boot.js";
import type { FunctionUrlEvent } from "../../functions/platform/http/lambda.js";

const SECRET = "s3cr3t-edge-proof-value-0123456789abcdef";

function event(headers: Record<string, string>): FunctionUrlEvent {
  return {
    version: "2.0",
    rawPath: "/sign-in",
    rawQueryString: "",
    headers,
    isBase64Encoded: false,
    requestContext: { requestId: "r", timeEpoch: 0, http: { method: "POST", path: "/sign-in", sourceIp: "130.176.1.1" } },
  };
}

describe("requests through CloudFront (Lambda entries)", () => {
  it("takes the viewer address CloudFront recorded when the edge proof matches", () => {
    const e = fromEdge(event({ "x-timbre-edge": SECRET, "x-timbre-viewer-ip": "203.0.113.7" }), SECRET);
    expect(e.requestContext.http.sourceIp).toBe("203.0.113.7");
  });

  it("keeps the caller's own address when the proof is missing or wrong, whatever viewer address it claims", () => {
    const claims: Record<string, string>[] = [{ "x-timbre-viewer-ip": "203.0.113.7" }, { "x-timbre-edge": "guess", "x-timbre-viewer-ip": "203.0.113.7" }];
    for (const headers of claims) {
      expect(fromEdge(event(headers), SECRET).requestContext.http.sourceIp).toBe("130.176.1.1");
    }
    expect(fromEdge(event({ "x-timbre-edge": SECRET, "x-timbre-viewer-ip": "203.0.113.7" }), undefined).requestContext.http.sourceIp).toBe("130.176.1.1");
  });

  it("ignores a viewer address that is not an IP address", () => {
    const e = fromEdge(event({ "x-timbre-edge": SECRET, "x-timbre-viewer-ip": "localhost" }), SECRET);
    expect(e.requestContext.http.sourceIp).toBe("130.176.1.1");
  });

  it("never passes the proof on to the app, and marks the request https", () => {
    const e = fromEdge(event({ "x-timbre-edge": SECRET, "x-timbre-viewer-ip": "203.0.113.7", "x-forwarded-host": "timbre.example" }), SECRET);
    expect(e.headers).toEqual({ "x-forwarded-host": "timbre.example", "x-forwarded-proto": "https" });
  });
});
