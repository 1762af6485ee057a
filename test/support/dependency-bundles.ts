import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Dev dependencies that test files import and that cost seconds of CPU to load as installed
 * (docs/decisions/2026-12-07-test-dependency-bundles.md): the official ElevenLabs SDK resolves and
 * compiles 11,759 files in every file process that imports it (3.0-3.4 s of CPU). The test run
 * loads each one from a single-file esbuild bundle of the same installed package instead (about
 * 1.2 s): the package's own code, unchanged, in one file; no code of ours is in it. The bundle is
 * built once (test/support/global-setup.ts), again only when the package's package.json changes,
 * and vitest.config.ts points the package's name at it (resolve.alias). A bundle's externals are
 * loaded from node_modules as installed.
 *
 * TIMBRE_TEST_SDK_BUNDLE=0: the tests import the package as installed.
 */
export interface DependencyBundle {
  /** The package's name, as the tests import it (no subpaths are aliased). */
  readonly name: string;
  /** Its runtime dependencies that stay outside the bundle (native code, or what it requires lazily). */
  readonly external: readonly string[];
  /** The environment variable that, set to "0", turns this bundle off. */
  readonly toggle: string;
}

export const DEPENDENCY_BUNDLES: readonly DependencyBundle[] = [
  { name: "@elevenlabs/elevenlabs-js", external: ["ws", "node-fetch", "command-exists"], toggle: "TIMBRE_TEST_SDK_BUNDLE" },
];

/** Bumped when the way a bundle is built changes, so an older bundle is not reused. */
const FORMAT = 1;
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** Under node_modules, so that the bundle's externals resolve to the installed packages. */
export const BUNDLE_DIR = join(ROOT, "node_modules/.cache/timbre-test-bundles");

function packageJsonPath(name: string): string {
  return join(ROOT, "node_modules", name, "package.json");
}

function enabled(bundle: DependencyBundle): boolean {
  return process.env[bundle.toggle] !== "0" && existsSync(packageJsonPath(bundle.name));
}

/** Where a bundle of the installed version of the package lives (whether or not it is built yet). */
export function bundlePath(bundle: DependencyBundle): string {
  const { version } = JSON.parse(readFileSync(packageJsonPath(bundle.name), "utf8")) as { version: string };
  return join(BUNDLE_DIR, `${bundle.name.replace(/[@/]/g, "_")}-${version}-f${FORMAT}.cjs`);
}

/** vitest.config.ts's resolve.alias: each enabled bundle's exact package name to its file. */
export function dependencyBundleAliases(): { find: RegExp; replacement: string }[] {
  return DEPENDENCY_BUNDLES.filter(enabled).map((b) => ({
    find: new RegExp(`^${b.name.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}$`),
    replacement: bundlePath(b),
  }));
}

/**
 * Builds every enabled bundle that is missing or older than its package's package.json (once per
 * run, in the global setup). Throws when an external would resolve to another copy from the
 * bundle's folder than from the package's: the bundle must load the same code the package does.
 */
export async function ensureDependencyBundles(log: (line: string) => void = () => {}): Promise<void> {
  const { build } = await import("esbuild");
  for (const bundle of DEPENDENCY_BUNDLES.filter(enabled)) {
    const out = bundlePath(bundle);
    const pkg = packageJsonPath(bundle.name);
    if (existsSync(out) && statSync(out).mtimeMs >= statSync(pkg).mtimeMs) continue;
    const fromPackage = createRequire(pkg);
    const fromBundle = createRequire(join(BUNDLE_DIR, "x.cjs"));
    for (const ext of bundle.external) {
      if (fromPackage.resolve(ext) !== fromBundle.resolve(ext)) {
        throw new Error(`${bundle.name}'s dependency ${ext} resolves elsewhere from ${BUNDLE_DIR}; set ${bundle.toggle}=0`);
      }
    }
    log(`Bundling ${bundle.name} for the tests…`);
    // The entry names every export the package has, so that Node's import of the CommonJS bundle
    // (vitest loads node_modules natively) sees them as named exports, as it does the package's.
    // Listed by a child node: loading the package costs seconds, paid only when it changed.
    const names = JSON.parse(
      execFileSync(process.execPath, ["-e", `process.stdout.write(JSON.stringify(Object.keys(require(${JSON.stringify(bundle.name)}))))`], { cwd: ROOT, encoding: "utf8" }),
    ) as string[];
    const exported = names.filter((n) => /^[A-Za-z_$][\w$]*$/.test(n) && n !== "default" && n !== "__esModule");
    mkdirSync(BUNDLE_DIR, { recursive: true });
    const tmp = `${out}.${process.pid}.tmp`;
    await build({
      stdin: { contents: `export { ${exported.join(", ")} } from ${JSON.stringify(bundle.name)};`, resolveDir: ROOT, loader: "js" },
      bundle: true,
      platform: "node",
      format: "cjs",
      minifyWhitespace: true,
      minifySyntax: true,
      external: [...bundle.external],
      outfile: tmp,
      logLevel: "error",
    });
    // Another run building the same bundle at the same time writes the same bytes.
    renameSync(tmp, out);
  }
}
