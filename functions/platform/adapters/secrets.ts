import { GetSecretValueCommand, SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { ConfigError } from "../config.js";

/**
 * Reads one Secrets Manager secret as a string. Only the AWS Lambda entries use this, once per
 * container, before they build the context; locally the secret comes from the data folder.
 */
export async function readSecretString(region: string, arn: string, variable: string): Promise<string> {
  const client = new SecretsManagerClient({ region });
  try {
    const r = await client.send(new GetSecretValueCommand({ SecretId: arn }));
    const value = r.SecretString?.trim();
    if (!value || value.length < 32) throw new ConfigError(`Invalid configuration: ${variable}: the secret must hold at least 32 characters`);
    return value;
  } finally {
    client.destroy();
  }
}
