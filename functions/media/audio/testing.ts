/** Signal helpers shared by the audio and engine tests (not used at run time). */
export function tone(freq: number, sampleRate: number, seconds: number, amplitude = 0.5): Float32Array {
  const n = Math.round(sampleRate * seconds);
  const x = new Float32Array(n);
  for (let i = 0; i < n; i++) x[i] = amplitude * Math.sin((2 * Math.PI * freq * i) / sampleRate);
  return x;
}

export function toneInt16(freq: number, sampleRate: number, seconds: number, amplitude = 0.5): Int16Array {
  const x = tone(freq, sampleRate, seconds, amplitude);
  return Int16Array.from(x, (v) => Math.round(v * 32767));
}

/** RMS over the middle of the signal, away from filter edges. */
export function middleRms(x: ArrayLike<number>, from = 0.1, to = 0.9): number {
  const a = Math.floor(x.length * from);
  const b = Math.floor(x.length * to);
  let s = 0;
  for (let i = a; i < b; i++) s += x[i] * x[i];
  return Math.sqrt(s / Math.max(1, b - a));
}

export function db(ratio: number): number {
  return 20 * Math.log10(ratio);
}
