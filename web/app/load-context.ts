import type { WebLoadContext } from "../../functions/handlers/web.js";

// Loaders and actions receive what the web handler passes (functions/handlers/web.ts).
declare module "@remix-run/server-runtime" {
  interface AppLoadContext extends WebLoadContext {}
}

export type { WebLoadContext };
