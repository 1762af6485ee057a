/**
 * Output volume (voice_settings.volume, dB): a gain applied to the engine's PCM before it is
 * encoded. Bounded to VOLUME_DB_MIN..VOLUME_DB_MAX. A boost never clips: when the gain would push
 * the chunk's peak past full scale it is lowered to what the peak allows.
 */
export const VOLUME_DB_MIN = -30;
export const VOLUME_DB_MAX = 5;

/** Returns `pcm` scaled by `db` decibels (a new array; `pcm` itself when the gain is 0 dB or absent). */
export function applyGainDb(pcm: Int16Array, db: number | null | undefined): Int16Array {
  if (db === null || db === undefined || !Number.isFinite(db) || db === 0 || pcm.length === 0) return pcm;
  const bounded = Math.min(VOLUME_DB_MAX, Math.max(VOLUME_DB_MIN, db));
  let gain = 10 ** (bounded / 20);
  if (gain > 1) {
    let peak = 0;
    for (let i = 0; i < pcm.length; i++) {
      const a = Math.abs(pcm[i]);
      if (a > peak) peak = a;
    }
    if (peak > 0) gain = Math.min(gain, 32767 / peak);
  }
  const out = new Int16Array(pcm.length);
  for (let i = 0; i < pcm.length; i++) out[i] = Math.max(-32768, Math.min(32767, Math.round(pcm[i] * gain)));
  return out;
}
