import type { Config } from "../config.js";

/**
 * Outgoing mail, a port with one method: invites are the product's only mail. Without
 * SMTP_URL nothing leaves the server (the invite link is shown to the admin and kept in the
 * workspace's outbox instead); with it, nodemailer hands each message to that SMTP server.
 */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  /** True when a mail server is configured, so `send` actually sends. */
  readonly enabled: boolean;
  /** Resolves when the SMTP server accepted the message; throws when it refused or timed out. */
  send(m: MailMessage): Promise<void>;
}

const TIMEOUT_MS = 10_000;

export function createMailer(cfg: Config): Mailer {
  const url = cfg.mail.smtpUrl;
  if (!url) return { enabled: false, send: async () => undefined };
  let transport: Promise<{ sendMail(m: Record<string, unknown>): Promise<unknown> }> | undefined;
  return {
    enabled: true,
    async send(m) {
      transport ??= import("nodemailer").then((nm) => {
        const u = new URL(url);
        const secure = u.protocol === "smtps:";
        return nm.createTransport({
          host: u.hostname,
          port: Number(u.port) || (secure ? 465 : 587),
          secure,
          auth: u.username ? { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) } : undefined,
          connectionTimeout: TIMEOUT_MS,
          greetingTimeout: TIMEOUT_MS,
          socketTimeout: TIMEOUT_MS,
        });
      });
      await (await transport).sendMail({ from: cfg.mail.from, to: m.to, subject: m.subject, text: m.text });
    },
  };
}
