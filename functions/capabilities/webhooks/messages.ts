/** The webhooks' messages in one place. */
export const webhookMessages = {
  notFound: (id: string) => `A webhook with the id ${id} was not found.`,
  limitReached: (n: number) => `You can have at most ${n} webhooks here. Delete one to add another.`,
  httpsOnly: "Webhook URLs must use https.",
  httpOrHttps: "Webhook URLs must use http or https.",
  invalidUrl: "Please enter a valid URL, for example https://example.com/webhooks/timbre.",
  credentialsInUrl: "Webhook URLs may not contain a user name or password; use request headers for credentials.",
  privateTarget:
    "Webhook URLs may not point to private, loopback or link-local addresses. The server's operator can allow a receiver on this machine with WEBHOOK_ALLOW_LOCAL_TARGETS=true, or private networks with WEBHOOK_ALLOW_PRIVATE=true.",
  unresolvable: (host: string) => `The host ${host} could not be resolved.`,
  headerNotAllowed: (name: string) => `The request header ${name} is set by Timbre and cannot be changed.`,
  headerForbidden: (name: string) =>
    `The request header ${name} cannot be set on a webhook: Timbre sends no credentials, cookies, proxy or hop-by-hop headers. Verify the ElevenLabs-Signature header, or use a header of your own such as X-Webhook-Token.`,
  /** A delivery that got no HTTP answer, whatever the reason (refused, reset, TLS, timeout): the same words, so the log cannot map ports. */
  connectionFailed: "Connection failed: no HTTP response.",
  tooManyTests: (n: number) => `At most ${n} test events per minute for this webhook. Please wait a moment and try again.`,
  tooManyWorkspaceTests: (n: number) => `At most ${n} test events per minute in this workspace. Please wait a moment and try again.`,
  autoDisabled: "This webhook was disabled automatically after repeated failed deliveries. Fix the endpoint, then enable it again.",
};
