/** The webhooks' messages in one place. */
export const webhookMessages = {
  notFound: (id: string) => `A webhook with the id ${id} was not found.`,
  limitReached: (n: number) => `You can have at most ${n} webhooks here. Delete one to add another.`,
  httpsOnly: "Webhook URLs must use https.",
  httpOrHttps: "Webhook URLs must use http or https.",
  invalidUrl: "Please enter a valid URL, for example https://example.com/webhooks/timbre.",
  credentialsInUrl: "Webhook URLs may not contain a user name or password; use request headers for credentials.",
  privateTarget: "Webhook URLs may not point to private, loopback or link-local addresses (WEBHOOK_ALLOW_PRIVATE allows them).",
  unresolvable: (host: string) => `The host ${host} could not be resolved.`,
  headerNotAllowed: (name: string) => `The request header ${name} is set by Timbre and cannot be changed.`,
  autoDisabled: "This webhook was disabled automatically after repeated failed deliveries. Fix the endpoint, then enable it again.",
};
