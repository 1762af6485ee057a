import { z } from "zod";

/**
 * Account form schemas and their messages: zod only, so the web validates in the browser with
 * exactly what the API checks (no server modules come along).
 */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const API_KEY_NAME_MAX = 100;

export const messages = {
  emailTaken: "An account with this email already exists. Please sign in instead.",
  badCredentials: "Incorrect email or password.",
  tooManyAttempts: "Too many failed sign-in attempts. Please wait 15 minutes and try again.",
  emailInvalid: "Please enter a valid email address.",
  passwordTooShort: `Password must be at least ${PASSWORD_MIN} characters.`,
  passwordTooLong: `Password must be at most ${PASSWORD_MAX} characters.`,
};

export const SignUpSchema = z.object({
  email: z.string().trim().email(messages.emailInvalid).max(254, messages.emailInvalid),
  password: z.string().min(PASSWORD_MIN, messages.passwordTooShort).max(PASSWORD_MAX, messages.passwordTooLong),
  first_name: z.string().trim().max(80).optional().nullable(),
});

export const SignInSchema = z.object({
  email: z.string().trim().min(1, messages.emailInvalid).max(254),
  password: z.string().min(1, messages.badCredentials).max(PASSWORD_MAX),
});

export const CreateApiKeySchema = z.object({
  name: z.string().trim().min(1, "Please give your API key a name").max(API_KEY_NAME_MAX, `Name must be at most ${API_KEY_NAME_MAX} characters`),
});
