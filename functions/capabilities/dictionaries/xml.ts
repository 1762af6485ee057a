/**
 * A small, strict XML reader for lexicon files. It cannot fetch or expand anything: a DOCTYPE
 * (and with it every DTD, entity declaration and external entity) is refused where it starts,
 * and the only references understood are the five built-in entities and numeric character
 * references. Depth, attribute count and size, names and element count are bounded, and the
 * scan is a single linear pass, so a hostile file costs at most one read of its bytes.
 */
export interface XmlAttribute {
  name: string;
  local: string;
  ns: string | null;
  value: string;
}

export interface XmlElement {
  name: string;
  local: string;
  ns: string | null;
  attributes: XmlAttribute[];
  children: Array<XmlElement | string>;
  /** Where the start tag begins in the source (see lineAt). */
  offset: number;
}

export interface XmlLimits {
  maxDepth: number;
  maxAttributes: number;
  maxAttributeLength: number;
  maxNameLength: number;
  maxElements: number;
  maxTextLength: number;
}

export const DEFAULT_XML_LIMITS: XmlLimits = {
  maxDepth: 32,
  maxAttributes: 32,
  maxAttributeLength: 2048,
  maxNameLength: 128,
  maxElements: 200_000,
  maxTextLength: 100_000,
};

export type XmlErrorKind = "doctype" | "entity" | "limit" | "encoding" | "syntax";

export class XmlError extends Error {
  override name = "XmlError";
  constructor(
    readonly kind: XmlErrorKind,
    message: string,
    readonly offset: number,
    readonly line: number,
  ) {
    super(message);
  }
}

const XML_NS = "http://www.w3.org/XML/1998/namespace";
const BUILT_IN: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };
const NAME_START = /[A-Za-z_:\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u02FF\u0370-\u037D\u037F-\u1FFF\u200C-\u200D\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD]/;
const NAME_CHAR = /[A-Za-z0-9_:.\-\u00B7\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u037D\u037F-\u1FFF\u200C-\u200D\u203F-\u2040\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD]/;

/** ASCII name characters without a regular expression; the rest by the XML name ranges. */
function isNameChar(code: number, ch: string): boolean {
  if (code < 128) return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 58) || code === 95 || code === 45 || code === 46;
  return NAME_CHAR.test(ch);
}

/** Bytes to text: UTF-8 (with or without BOM) or UTF-16 with a BOM; anything else is refused. */
export function decodeXmlBytes(bytes: Uint8Array): string {
  const fatal = (label: string, data: Uint8Array) => {
    try {
      return new TextDecoder(label, { fatal: true }).decode(data);
    } catch {
      throw new XmlError("encoding", `The file is not valid ${label.toUpperCase()} text.`, 0, 1);
    }
  };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return fatal("utf-16le", bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return fatal("utf-16be", bytes.subarray(2));
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  return fatal("utf-8", bytes.subarray(start));
}

export function parseXml(source: string, limits: XmlLimits = DEFAULT_XML_LIMITS): XmlElement {
  return new Reader(source, limits).document();
}

class Reader {
  private pos = 0;
  private elements = 0;

  constructor(
    private readonly s: string,
    private readonly limits: XmlLimits,
  ) {}

  private fail(kind: XmlErrorKind, message: string, at = this.pos): never {
    const line = lineAt(this.s, at);
    throw new XmlError(kind, `${message} (line ${line})`, at, line);
  }

  private startsWith(t: string): boolean {
    return this.s.startsWith(t, this.pos);
  }

  private skipSpace(): void {
    for (let c = this.s.charCodeAt(this.pos); c === 32 || c === 9 || c === 10 || c === 13; c = this.s.charCodeAt(++this.pos));
  }

  private until(t: string, what: string): string {
    const end = this.s.indexOf(t, this.pos);
    if (end < 0) this.fail("syntax", `Unterminated ${what}`);
    const out = this.s.slice(this.pos, end);
    this.pos = end + t.length;
    return out;
  }

  document(): XmlElement {
    if (this.startsWith("<?xml") && /[\s?]/.test(this.s[this.pos + 5] ?? "")) this.declaration();
    let root: XmlElement | undefined;
    for (;;) {
      this.skipSpace();
      if (this.pos >= this.s.length) break;
      if (this.startsWith("<!--")) this.comment();
      else if (this.startsWith("<!DOCTYPE") || this.startsWith("<!doctype")) this.refuseDoctype();
      else if (this.startsWith("<!")) this.fail("doctype", "Markup declarations are not allowed in lexicon files");
      else if (this.startsWith("<?")) this.instruction();
      else if (this.s[this.pos] === "<") {
        if (root) this.fail("syntax", "A document has exactly one root element");
        root = this.element(0, new Map([["xml", XML_NS]]));
      } else this.fail("syntax", "Text is not allowed outside the root element");
    }
    if (!root) this.fail("syntax", "The file has no root element");
    return root;
  }

  private refuseDoctype(): never {
    this.fail(
      "doctype",
      "The file declares a DOCTYPE. DTDs, entity declarations and external entities are refused for safety; remove the DOCTYPE and try again",
    );
  }

  private declaration(): void {
    const start = this.pos;
    const body = this.until("?>", "XML declaration");
    const enc = /encoding\s*=\s*["']([^"']+)["']/.exec(body)?.[1]?.toLowerCase();
    if (enc && !["utf-8", "utf8", "utf-16", "us-ascii", "ascii"].includes(enc)) {
      this.fail("encoding", `The encoding ${enc} is not supported; save the file as UTF-8`, start);
    }
  }

  private comment(): void {
    this.pos += 4;
    this.until("-->", "comment");
  }

  private instruction(): void {
    const start = this.pos;
    this.pos += 2;
    const target = this.name();
    if (target.toLowerCase() === "xml") this.fail("syntax", "The XML declaration must come first", start);
    this.until("?>", "processing instruction");
  }

  private name(): string {
    const start = this.pos;
    if (!NAME_START.test(this.s[this.pos] ?? "")) this.fail("syntax", "A name was expected");
    this.pos++;
    while (this.pos < this.s.length && isNameChar(this.s.charCodeAt(this.pos), this.s[this.pos])) {
      this.pos++;
      if (this.pos - start > this.limits.maxNameLength) this.fail("limit", `Names are limited to ${this.limits.maxNameLength} characters`, start);
    }
    return this.s.slice(start, this.pos);
  }

  /** Text with references resolved; a character of `stop` ends it (not consumed). */
  private text(stop: string, max: number, what: string): string {
    const stops = [...stop].map((c) => c.charCodeAt(0));
    let out = "";
    const start = this.pos;
    for (;;) {
      let j = this.pos;
      for (let c = this.s.charCodeAt(j); j < this.s.length && c !== 38 && !stops.includes(c); c = this.s.charCodeAt(++j));
      if (j - start > max) this.fail("limit", `${what} is longer than ${max} characters`, start);
      out += this.s.slice(this.pos, j);
      this.pos = j;
      if (this.s.charCodeAt(j) !== 38) return out; // not "&": a stop or the end
      out += this.reference();
    }
  }

  private reference(): string {
    const start = this.pos;
    const semi = this.s.indexOf(";", this.pos);
    if (semi < 0 || semi - this.pos > 12) this.fail("syntax", "A bare '&' must be written as &amp;");
    const ref = this.s.slice(this.pos + 1, semi);
    this.pos = semi + 1;
    if (ref.startsWith("#")) {
      const code = ref[1] === "x" || ref[1] === "X" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      const ok = /^#(x[0-9a-fA-F]+|[0-9]+)$/i.test(ref) && Number.isFinite(code) && (code === 9 || code === 10 || code === 13 || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0x10ffff && code !== 0xfffe && code !== 0xffff));
      if (!ok) this.fail("syntax", `Invalid character reference &${ref};`, start);
      return String.fromCodePoint(code);
    }
    const v = BUILT_IN[ref];
    if (v === undefined) this.fail("entity", `The entity reference &${ref}; is not allowed: only &lt; &gt; &amp; &quot; &apos; and numeric character references are`, start);
    return v;
  }

  /** A qualified name's local part and namespace in the given scope (attributes have none by default). */
  private resolve(qname: string, isAttribute: boolean, scope: Map<string, string>): { local: string; ns: string | null } {
    const i = qname.indexOf(":");
    const prefix = i < 0 ? "" : qname.slice(0, i);
    const local = i < 0 ? qname : qname.slice(i + 1);
    if (prefix === "" && isAttribute) return { local, ns: null };
    const ns = scope.get(prefix);
    if (prefix && ns === undefined) this.fail("syntax", `The prefix ${prefix} is not declared`);
    return { local, ns: ns || null };
  }

  private element(depth: number, scope: Map<string, string>): XmlElement {
    if (depth >= this.limits.maxDepth) this.fail("limit", `Elements are nested more than ${this.limits.maxDepth} levels deep`);
    if (++this.elements > this.limits.maxElements) this.fail("limit", `The file has more than ${this.limits.maxElements} elements`);
    const offset = this.pos;
    this.pos++; // <
    const name = this.name();
    const raw: Array<{ name: string; value: string }> = [];
    for (;;) {
      const before = this.pos;
      this.skipSpace();
      if (this.startsWith("/>") || this.startsWith(">")) break;
      if (this.pos === before) this.fail("syntax", `Expected whitespace between attributes of <${name}>`);
      const attrName = this.name();
      this.skipSpace();
      if (this.s[this.pos] !== "=") this.fail("syntax", `Attribute ${attrName} needs a value`);
      this.pos++;
      this.skipSpace();
      const quote = this.s[this.pos];
      if (quote !== '"' && quote !== "'") this.fail("syntax", `The value of ${attrName} must be quoted`);
      this.pos++;
      const value = this.text(quote + "<", this.limits.maxAttributeLength, `The value of attribute ${attrName}`);
      if (this.s[this.pos] !== quote) this.fail("syntax", `Unterminated value of attribute ${attrName}`);
      this.pos++;
      for (const a of raw) if (a.name === attrName) this.fail("syntax", `Attribute ${attrName} is repeated`);
      raw.push({ name: attrName, value });
      if (raw.length > this.limits.maxAttributes) this.fail("limit", `<${name}> has more than ${this.limits.maxAttributes} attributes`);
    }

    // Namespace declarations apply to the element itself and everything inside it.
    let inner = scope;
    for (const a of raw) {
      if (a.name === "xmlns" || a.name.startsWith("xmlns:")) {
        if (inner === scope) inner = new Map(scope);
        inner.set(a.name === "xmlns" ? "" : a.name.slice(6), a.value);
      }
    }
    const own = this.resolve(name, false, inner);
    const attributes: XmlAttribute[] = [];
    for (const a of raw) {
      if (a.name === "xmlns" || a.name.startsWith("xmlns:")) continue;
      const r = this.resolve(a.name, true, inner);
      attributes.push({ name: a.name, value: a.value, local: r.local, ns: r.ns });
    }
    const el: XmlElement = { name, local: own.local, ns: own.ns, attributes, children: [], offset };

    if (this.startsWith("/>")) {
      this.pos += 2;
      return el;
    }
    this.pos++; // >
    for (;;) {
      if (this.pos >= this.s.length) this.fail("syntax", `<${name}> is never closed`);
      if (this.startsWith("</")) {
        this.pos += 2;
        const end = this.name();
        this.skipSpace();
        if (end !== name) this.fail("syntax", `</${end}> closes <${name}>`);
        if (this.s[this.pos] !== ">") this.fail("syntax", `Malformed end tag </${end}>`);
        this.pos++;
        return el;
      }
      if (this.startsWith("<!--")) this.comment();
      else if (this.startsWith("<![CDATA[")) {
        this.pos += 9;
        const text = this.until("]]>", "CDATA section");
        if (text.length > this.limits.maxTextLength) this.fail("limit", `Text is longer than ${this.limits.maxTextLength} characters`);
        el.children.push(text);
      } else if (this.startsWith("<!DOCTYPE") || this.startsWith("<!doctype")) this.refuseDoctype();
      else if (this.startsWith("<!")) this.fail("doctype", "Markup declarations are not allowed in lexicon files");
      else if (this.startsWith("<?")) this.instruction();
      else if (this.s[this.pos] === "<") el.children.push(this.element(depth + 1, inner));
      else el.children.push(this.text("<", this.limits.maxTextLength, "Text"));
    }
  }
}

/** 1-based line of an offset (only computed for messages, so parsing stays linear). */
export function lineAt(source: string, offset: number): number {
  let n = 1;
  for (let i = 0; i < offset && i < source.length; i++) if (source.charCodeAt(i) === 10) n++;
  return n;
}

/**
 * Line numbers for many offsets of one source: the newlines are found once, then each lookup is
 * a binary search, so reporting a problem per element stays linear in the file's size.
 */
export function lineIndex(source: string): (offset: number) => number {
  let newlines: number[] | undefined;
  return (offset) => {
    if (!newlines) {
      newlines = [];
      for (let i = source.indexOf("\n"); i >= 0; i = source.indexOf("\n", i + 1)) newlines.push(i);
    }
    let lo = 0;
    let hi = newlines.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (newlines[mid] < offset) lo = mid + 1;
      else hi = mid;
    }
    return lo + 1;
  };
}

/** The element's text content (its own text and CDATA, not its children's). */
export function ownText(el: XmlElement): string {
  return el.children.filter((c): c is string => typeof c === "string").join("");
}

export function childElements(el: XmlElement): XmlElement[] {
  return el.children.filter((c): c is XmlElement => typeof c !== "string");
}

export function attribute(el: XmlElement, local: string, ns: string | null = null): string | undefined {
  return el.attributes.find((a) => a.local === local && a.ns === ns)?.value;
}

export const XML_NAMESPACE = XML_NS;

/** Escapes text for element content and attribute values. */
export function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!);
}
