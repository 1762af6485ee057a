import { describe, expect, it } from "vitest";
import { dictionaryMessages } from "../../../../functions/platform/contract/dictionaries.js";
import { downloadName, downloadProblem } from "./download.js";

describe("a dictionary download (voice-creation.md §8)", () => {
  it("passes a PLS document", () => {
    expect(downloadProblem(200, "application/pls+xml; charset=utf-8")).toBeNull();
    expect(downloadProblem(200, "text/xml")).toBeNull();
  });

  it("refuses any other type with 'Invalid response type received'", () => {
    for (const type of ["text/html; charset=utf-8", "application/json", null]) expect(downloadProblem(200, type)).toBe(dictionaryMessages.invalidResponseType);
    expect(dictionaryMessages.invalidResponseType).toBe("Invalid response type received");
  });

  it("says a failed answer's own message (the download route's plain text), or that fetching failed", () => {
    expect(downloadProblem(404, "text/plain; charset=utf-8", dictionaryMessages.notFound)).toBe(dictionaryMessages.notFound);
    expect(downloadProblem(502, "text/plain", dictionaryMessages.invalidResponseType)).toBe(dictionaryMessages.invalidResponseType);
    expect(downloadProblem(500, "text/html", "<html>oops</html>")).toBe(dictionaryMessages.fetchFailed);
  });

  it("names the file from its Content-Disposition, always .pls", () => {
    expect(downloadName('attachment; filename="Names.pls"', "x")).toBe("Names.pls");
    expect(downloadName('attachment; filename="Names"', "x")).toBe("Names.pls");
    expect(downloadName(null, "My dictionary")).toBe("My dictionary.pls");
  });
});
