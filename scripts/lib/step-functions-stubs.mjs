// @ts-check
/**
 * What aws-local-stepfunctions imports but the embedded workflow runner never uses, replaced in
 * the bundled server (server-bundle.mjs): the AWS Lambda client and its credential providers
 * (every Task runs a local handler) and the ASL validator (definitions are validated once when
 * rendered, infra/local/definitions.ts). Loading them took 0.3-0.5 s of the request loop at a
 * server's first workflow execution. Reaching one of these is a bug, and says so.
 */
const unused = (what) => {
  throw new Error(`the embedded workflow runner does not use ${what}`);
};

export class LambdaClient {
  constructor() {
    unused("AWS Lambda (every Task has a local handler)");
  }
}
export class InvokeCommand {}
export const fromCognitoIdentityPool = () => unused("Cognito credentials");
export default function aslValidator() {
  return unused("the ASL validator at run time (definitions are validated when rendered)");
}
