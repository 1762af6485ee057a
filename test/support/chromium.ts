import { existsSync } from "node:fs";

/**
 * Debian's Chromium (never a downloaded one), headless, with nothing running in the background: the binary
 * itself (/usr/lib/chromium/chromium) when installed, else the /usr/bin/chromium wrapper. The wrapper is a
 * shell script that sources /etc/chromium.d/ on every launch and adds --enable-gpu-rasterization,
 * --enable-remote-extensions and an empty --load-extension= to our flags; the binary gets only ours (and
 * Playwright's). The package `.ci/run` installs ships both. (No CPU difference was measured either way:
 * docs/decisions/2026-12-07-browser-concurrency.md; the point is that a machine's /etc/chromium.d cannot change
 * what a test runs.)
 */
export const CHROMIUM = existsSync("/usr/lib/chromium/chromium") ? "/usr/lib/chromium/chromium" : "/usr/bin/chromium";
export const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"];
