// The Remix server build, aliased at bundle time (infra/constructs/web.ts); web.ts narrows it.
declare module "timbre-web-server-build";
