export declare const ROOT: string;
export declare const SERVER_DIR: string;
export declare const SERVER_ENTRIES: Record<string, string>;
export declare function serverBundleIsStale(): boolean;
export declare function ensureServerBundle(): Promise<boolean>;
