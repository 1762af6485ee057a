import type { AppContext } from "../../platform/context.js";
import type { LibraryListing } from "../../platform/stores/library.js";
import { ApiError } from "../../platform/http/errors.js";

/**
 * Read, change, write with the listing's revision; retried when another writer got there first.
 * `change` returns null to leave the listing as it is.
 */
export async function updateListing(
  ctx: AppContext,
  voiceId: string,
  change: (current: LibraryListing | undefined) => Omit<LibraryListing, "rev"> | null,
): Promise<LibraryListing | undefined> {
  for (let attempt = 0; attempt < 8; attempt++) {
    const current = await ctx.stores.library.listing(voiceId);
    const next = change(current);
    if (!next) return current;
    const saved = await ctx.stores.library.save(next, current ?? null);
    if (saved) return saved;
  }
  throw new ApiError(409, "library_busy", "The voice is being changed by someone else. Please try again.");
}
