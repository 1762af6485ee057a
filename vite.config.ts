import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";

declare module "@remix-run/node" {
  // Typed loader data under single fetch (plain objects instead of json()).
  interface Future {
    v3_singleFetch: true;
  }
}

// The web app lives in web/ and builds into build/web (client assets + server bundle),
// which the embedded stack and the Lambda handler load.
export default defineConfig({
  publicDir: "web/public",
  plugins: [
    remix({
      appDirectory: "web/app",
      buildDirectory: "build/web",
      ignoredRouteFiles: ["**/*.test.ts", "**/*.test.tsx", "**/*.css", "**/.*"],
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: true,
      },
    }),
  ],
});
