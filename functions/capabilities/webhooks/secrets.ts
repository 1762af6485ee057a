import { randomToken } from "../../platform/adapters/ids.js";
import { seal, unseal } from "../../platform/domain/sealed.js";

/**
 * Webhook signing secrets. The receiver needs the secret itself (HMAC), so it cannot be stored as
 * a hash: it is stored sealed (functions/platform/domain/sealed.ts).
 */
export const newWebhookSecret = () => `wsec_${randomToken(40)}`;

export const encryptSecret = (serverSecret: string, secret: string) => seal(serverSecret, "webhook-secrets", secret);
export const decryptSecret = (serverSecret: string, sealed: string) => unseal(serverSecret, "webhook-secrets", sealed);
