import { describe, expect, it } from "vitest";
import { XmlError, attribute, childElements, decodeXmlBytes, ownText, parseXml, XML_NAMESPACE } from "./xml.js";

const refusal = (src: string) => {
  try {
    parseXml(src);
  } catch (e) {
    if (e instanceof XmlError) return e;
    throw e;
  }
  throw new Error("expected a refusal");
};

describe("the strict XML reader", () => {
  it("reads elements, attributes, namespaces, text, CDATA and the built-in references", () => {
    const root = parseXml(
      `<?xml version="1.0" encoding="UTF-8"?><!-- c --><a:root xmlns:a="urn:a" xmlns="urn:d" xml:lang="en"><child k='v &amp; &#x41;'>x &lt; y<![CDATA[<raw>]]></child><?pi ignored?></a:root>`,
    );
    expect(root).toMatchObject({ local: "root", ns: "urn:a" });
    expect(attribute(root, "lang", XML_NAMESPACE)).toBe("en");
    const [child] = childElements(root);
    expect(child).toMatchObject({ local: "child", ns: "urn:d" });
    expect(attribute(child, "k")).toBe("v & A");
    expect(ownText(child)).toBe("x < y<raw>");
  });

  it("refuses a DOCTYPE where it starts, without reading what follows", () => {
    const tail = "<x>".repeat(100_000);
    const e = refusal(`<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY a "b">]>${tail}`);
    expect(e.kind).toBe("doctype");
    expect(e.offset).toBe(22);
    expect(e.line).toBe(2);
  });

  it("refuses a DOCTYPE inside the root, other declarations, and unknown entity references", () => {
    expect(refusal(`<r><!DOCTYPE r></r>`).kind).toBe("doctype");
    expect(refusal(`<r><!ENTITY a "b"></r>`).kind).toBe("doctype");
    expect(refusal(`<r>&ext;</r>`).kind).toBe("entity");
    expect(refusal(`<r a="&ext;"/>`).kind).toBe("entity");
    expect(refusal(`<r>&#0;</r>`).kind).toBe("syntax");
  });

  it("bounds depth, attribute size, attribute count and names", () => {
    expect(refusal("<a>".repeat(33)).kind).toBe("limit");
    expect(() => parseXml(`${"<a>".repeat(32)}${"</a>".repeat(32)}`)).not.toThrow();
    expect(refusal(`<a b="${"x".repeat(3000)}"/>`).kind).toBe("limit");
    expect(refusal(`<a ${Array.from({ length: 40 }, (_, i) => `a${i}="1"`).join(" ")}/>`).kind).toBe("limit");
    expect(refusal(`<${"n".repeat(200)}/>`).kind).toBe("limit");
  });

  it("refuses malformed documents", () => {
    for (const src of ["", "<a>", "<a></b>", "<a/><b/>", "text<a/>", "<a b=c/>", '<a b="1" b="2"/>', "<p:a/>", "<a>&</a>"]) {
      expect(() => parseXml(src), src).toThrow(XmlError);
    }
  });

  it("decodes UTF-8 with or without a BOM and UTF-16 with one; refuses invalid bytes and other declared encodings", () => {
    expect(decodeXmlBytes(new Uint8Array([0xef, 0xbb, 0xbf, 0x3c, 0x61, 0x2f, 0x3e]))).toBe("<a/>");
    expect(decodeXmlBytes(new Uint8Array([0xff, 0xfe, 0x3c, 0, 0x61, 0, 0x2f, 0, 0x3e, 0]))).toBe("<a/>");
    expect(() => decodeXmlBytes(new Uint8Array([0x3c, 0xff, 0x3e]))).toThrow(XmlError);
    expect(refusal(`<?xml version="1.0" encoding="ISO-8859-1"?><a/>`).kind).toBe("encoding");
  });
});
