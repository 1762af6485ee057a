/**
 * Headers between CloudFront and the Timbre functions (infra/constructs/edge.ts sets them,
 * boot.ts reads them). Kept free of imports so the CDK app can share them cheaply.
 */
/** Set by CloudFront on every origin request (an origin custom header); viewers cannot forge it. */
export const EDGE_PROOF_HEADER = "x-timbre-edge";
/** Set by the CloudFront viewer-request function from the viewer's own address. */
export const VIEWER_IP_HEADER = "x-timbre-viewer-ip";
