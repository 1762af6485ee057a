import { createContext, useContext, type ReactNode } from "react";

/**
 * The Content-Security-Policy nonce of this page: the server renders it into the inline scripts
 * it must send (hydration data, the early theme script). Browsers hide nonce attributes from the
 * DOM, so on the client it is empty and React does not compare it.
 */
const NonceContext = createContext("");

export function NonceProvider({ nonce, children }: { nonce: string; children: ReactNode }) {
  return <NonceContext.Provider value={nonce}>{children}</NonceContext.Provider>;
}

export const useNonce = () => useContext(NonceContext);
