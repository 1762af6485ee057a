import { useEffect, useRef, useState, type RefObject } from "react";
import type { PronunciationRule, ResourceRole } from "../../../../functions/platform/contract/dictionaries.js";

/**
 * The editor's browser side of /app/dictionaries*: plain fetches of the resource routes (JSON
 * in and out; every POST carries the CSRF token), and two small hooks.
 */
export interface DictionaryItem {
  id: string;
  name: string;
  latest_version_id: string;
  latest_version_rules_num: number;
  creation_time_unix: number;
  archived_time_unix?: number | null;
  permission_on_resource?: ResourceRole | null;
}

export interface Locator {
  pronunciation_dictionary_id: string;
  version_id: string | null;
}

export interface EditorWorkspace {
  isAdmin: boolean;
  canApply: boolean;
  /** The workspace stores shared files on the user: a dictionary's editors may share it too. */
  sharesByEditors: boolean;
  locators: Locator[];
}

export interface DictionaryVersion extends DictionaryItem {
  version_id: string;
  rules: PronunciationRule[];
}

export interface Failure {
  error: string;
  status: number;
  field?: string;
}

export type Result<T> = { ok: true; data: T } | { ok: false; failure: Failure };

async function parse<T>(res: Response, fallback: string): Promise<Result<T>> {
  const body = (await res.json().catch(() => null)) as (T & { error?: string; field?: string }) | null;
  if (!res.ok || !body) return { ok: false, failure: { error: body?.error ?? fallback, status: res.status, field: body?.field } };
  return { ok: true, data: body };
}

export async function getJson<T>(path: string, fallback: string, signal?: AbortSignal): Promise<Result<T>> {
  try {
    return await parse<T>(await fetch(path, { headers: { accept: "application/json" }, signal }), fallback);
  } catch (e) {
    if ((e as Error).name === "AbortError") throw e;
    return { ok: false, failure: { error: fallback, status: 0 } };
  }
}

export async function post<T>(path: string, csrf: string, fields: Record<string, string | Blob>, fallback: string): Promise<Result<T>> {
  const form = new FormData();
  form.set("csrf", csrf);
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  try {
    return await parse<T>(await fetch(path, { method: "POST", body: form, headers: { accept: "application/json" } }), fallback);
  } catch {
    return { ok: false, failure: { error: fallback, status: 0 } };
  }
}

/** `value` once it has stopped changing for `ms`. */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return settled;
}

/**
 * Fixed-height row virtualisation: only the rows in view (plus a few) are rendered. The
 * container scrolls; rows are positioned inside a spacer as tall as all rows together.
 */
export function useVirtualRows(count: number, rowHeight: number, container: RefObject<HTMLElement>, overscan = 6): { start: number; end: number; total: number } {
  const [view, setView] = useState({ top: 0, height: 400 });
  useEffect(() => {
    const el = container.current;
    if (!el) return;
    const update = () => setView({ top: el.scrollTop, height: el.clientHeight || 400 });
    update();
    el.addEventListener("scroll", update, { passive: true });
    const ro = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(update);
    ro?.observe(el);
    return () => {
      el.removeEventListener("scroll", update);
      ro?.disconnect();
    };
  }, [container]);
  const start = Math.max(0, Math.floor(view.top / rowHeight) - overscan);
  const end = Math.min(count, Math.ceil((view.top + view.height) / rowHeight) + overscan);
  return { start, end, total: count * rowHeight };
}

/** A ref that always holds the latest value (for callbacks registered once). */
export function useLatest<T>(value: T) {
  const ref = useRef(value);
  ref.current = value;
  return ref;
}
