import { z } from "zod";
import { ApiError, ValidationError, type ValidationIssue } from "./errors.js";
import type { ApiRequest } from "./types.js";

type Source = "body" | "query" | "path" | "header";

function toIssue(source: Source, issue: z.ZodIssue): ValidationIssue {
  const loc = [source, ...issue.path];
  switch (issue.code) {
    case z.ZodIssueCode.invalid_type:
      if (issue.received === "undefined") return { loc, msg: "Field required", type: "missing" };
      return { loc, msg: `Input should be a valid ${issue.expected}`, type: `${issue.expected}_type` };
    case z.ZodIssueCode.too_small:
      return {
        loc,
        msg: issue.message,
        type: issue.type === "string" || issue.type === "array" ? "too_short" : "greater_than_equal",
      };
    case z.ZodIssueCode.too_big:
      return { loc, msg: issue.message, type: issue.type === "string" || issue.type === "array" ? "too_long" : "less_than_equal" };
    case z.ZodIssueCode.invalid_enum_value:
      return { loc, msg: `Input should be ${issue.options.map((o) => `'${String(o)}'`).join(", ")}`, type: "enum" };
    default:
      return { loc, msg: issue.message, type: "value_error" };
  }
}

export function validationFromZod(source: Source, error: z.ZodError): ValidationError {
  return new ValidationError(error.issues.map((i) => toIssue(source, i)));
}

export function parseWith<T extends z.ZodTypeAny>(source: Source, schema: T, value: unknown): z.infer<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw validationFromZod(source, result.error);
  return result.data;
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The body as UTF-8 text. Invalid bytes are refused (400) rather than silently replaced with
 * U+FFFD, which would speak, store and bill text the caller never sent.
 */
export function utf8Body(req: ApiRequest): string {
  try {
    return strictUtf8.decode(req.body);
  } catch {
    throw new ApiError(400, "invalid_utf8", "The request body is not valid UTF-8 text.");
  }
}

/** JSON body; malformed JSON is a 422 json_invalid, never a 500. An empty body parses as {}. */
export function jsonBody<T extends z.ZodTypeAny>(req: ApiRequest, schema: T): z.infer<T> {
  let value: unknown = {};
  const text = utf8Body(req);
  if (text.trim() !== "") {
    try {
      value = JSON.parse(text);
    } catch (e) {
      throw new ValidationError([{ loc: ["body", 0], msg: `JSON decode error: ${(e as Error).message}`, type: "json_invalid" }]);
    }
  }
  return parseWith("body", schema, value);
}

/** Query string as an object; keys repeated in the URL (voice_ids=a&voice_ids=b) become arrays. */
export function queryObject(query: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(query.keys())) {
    const all = query.getAll(key);
    out[key] = all.length > 1 ? all : all[0];
  }
  return out;
}

export function queryParams<T extends z.ZodTypeAny>(req: ApiRequest, schema: T): z.infer<T> {
  return parseWith("query", schema, queryObject(req.query));
}

/** Zod helpers for query strings, where everything arrives as text. */
export const q = {
  bool: () =>
    z
      .union([z.boolean(), z.enum(["true", "false", "True", "False", "1", "0"])])
      .transform((v) => v === true || v === "true" || v === "True" || v === "1"),
  int: (min: number, max: number) => z.coerce.number().int().min(min).max(max),
  list: () => z.union([z.string(), z.array(z.string())]).transform((v) => (Array.isArray(v) ? v : [v])),
};
