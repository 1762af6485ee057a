// Imported first by every command-line entry: the AWS SDK prints a Node-version warning on
// load (Node 20 is this project's floor; see README). The SDK reads this switch itself.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
export {};
