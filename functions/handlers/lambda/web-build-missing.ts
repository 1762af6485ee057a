/** Bundled instead of the Remix server build when `npm run build` had not run before synth. */
export const missingWebBuild =
  "Timbre's web app was deployed without its build (build/web/server/index.js). Run `npm run build`, then `npx cdk deploy` again. The API under /v1 is unaffected.";
