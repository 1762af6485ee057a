/**
 * What an id in a path can look like: the ids this API hands out are short base62/slug tokens.
 * Anything else (1,000 characters, slashes, control bytes, "." and "..") names nothing.
 */
export const PATH_ID = /^(?!\.{1,2}$)[A-Za-z0-9_.:-]{1,128}$/;

export const isPathId = (s: string) => PATH_ID.test(s);
