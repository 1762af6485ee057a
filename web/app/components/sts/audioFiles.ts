/** Audio facts the browser can tell before uploading: the duration, by decoding the file. */
export async function decodedDurationMs(file: Blob): Promise<number | null> {
  try {
    const Ctx = window.OfflineAudioContext;
    if (!Ctx) return null;
    const ctx = new Ctx(1, 1, 44_100);
    const buffer = await ctx.decodeAudioData(await file.arrayBuffer());
    return Math.round(buffer.duration * 1000);
  } catch {
    return null;
  }
}
