import { describe, expect, it } from "vitest";
import { ownApiPath } from "./ownApi.js";

describe("ownApiPath (issue 28: previews failed unless the page's host was exactly PUBLIC_URL's)", () => {
  const page = "http://127.0.0.1:8080/app/voice-library";
  it("fetches the API's own resources from the page's origin, whatever host the API wrote", () => {
    expect(ownApiPath("http://localhost:8080/v1/voices/abc/preview", page)).toBe("/v1/voices/abc/preview");
    expect(ownApiPath("https://timbre.example.com/v1/shared-voices/x/preview?v=2", page)).toBe("/v1/shared-voices/x/preview?v=2");
    expect(ownApiPath("/v1/voices/abc/preview", page)).toBe("/v1/voices/abc/preview");
    expect(ownApiPath("http://127.0.0.1:8080/assets/a.mp3", page)).toBe("/assets/a.mp3");
  });
  it("refuses what is not this server's API", () => {
    expect(ownApiPath("https://cdn.example.com/previews/abc.mp3", page)).toBeNull();
    expect(ownApiPath("http://[not a url", page)).toBeNull();
  });
});
