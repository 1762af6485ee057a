import { upsampleHalfbandInt16 } from "../../functions/media/audio/resample.js";

/**
 * The resampling figure's measurement, run in a process of its own (`npm run bench` spawns it):
 * the engine's workers resample in threads with small heaps, and measured inside the bench's own
 * process (big heap, other threads) the same loop read 5-10 times its CPU. Prints the CPU
 * milliseconds of each measured round as JSON.
 *
 * 57 s of speech-like audio at 22.05 kHz, one call per 3 s chunk as the workers do it, on warm
 * code: the workers run this path all the time, and a fresh process needs several rounds before
 * V8 has optimised both the JavaScript around the kernel and the kernel, so five unmeasured
 * rounds come first.
 */
const n = 22050 * 57;
const pcm = Int16Array.from({ length: n }, (_, i) => Math.round(8000 * Math.sin(i / 7) * Math.sin(i / 900)));
const ours: number[] = [];
for (let rep = -5; rep < 7; rep++) {
  const t = process.cpuUsage();
  for (let i = 0; i < n; i += 22050 * 3) upsampleHalfbandInt16(pcm.subarray(i, i + 22050 * 3));
  const u = process.cpuUsage(t);
  if (rep >= 0) ours.push((u.user + u.system) / 1000);
}
process.stdout.write(`${JSON.stringify(ours)}\n`);
