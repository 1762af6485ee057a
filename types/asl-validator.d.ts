// asl-validator 3 ships no types; the one call infra/local/definitions.ts makes.
declare module "asl-validator" {
  interface ValidationResult {
    isValid: boolean;
    errorsText(separator?: string): string;
  }
  export default function aslValidator(definition: unknown, options?: { checkArn?: boolean; checkPaths?: boolean }): ValidationResult;
}
