import { describe, expect, it } from "vitest";
import { categoryLabel, myVoicesPath, parseMyVoicesQuery, writeMyVoicesQuery } from "./myVoices.js";

describe("My Voices' list query", () => {
  it("pages GET /v2/voices by 100, newest first or by name, with search, category, library voices and collection", () => {
    const q = (s: string) => new URL(myVoicesPath(parseMyVoicesQuery(new URLSearchParams(s))), "http://x").searchParams;
    expect(Object.fromEntries(q(""))).toEqual({ page_size: "100", sort: "created_at_unix", sort_direction: "desc" });
    expect(Object.fromEntries(q("sort=name&search=ava&category=cloned&collection=c1"))).toEqual({
      page_size: "100", sort: "name", sort_direction: "asc", search: "ava", category: "cloned", collection_id: "c1",
    });
    expect(q("category=community").get("voice_type")).toBe("community");
    expect(q("category=default").get("voice_type")).toBe("default");
    expect(q("category=bogus").has("category")).toBe(false);
    expect(new URL(myVoicesPath(parseMyVoicesQuery(new URLSearchParams()), "tok"), "http://x").searchParams.get("next_page_token")).toBe("tok");
  });

  it("writes back what differs from the defaults and keeps the rest", () => {
    const p = writeMyVoicesQuery({ search: " a ", filter: "professional", sort: "newest", collectionId: null }, new URLSearchParams("voiceId=v1&sort=name"));
    expect(p.toString()).toBe("voiceId=v1&search=a&category=professional");
  });

  it("calls premade voices Default", () => {
    expect(categoryLabel("premade")).toBe("Default");
    expect(categoryLabel("cloned")).toBe("Cloned");
  });
});
