/**
 * The professional clone's captcha: the sentence to read, drawn as a PNG. The glyphs come from a
 * 5×7 bitmap font written here (capital Latin letters; accents drawn from the letter's Unicode
 * decomposition), each dot stamped as a soft blob, every letter on its own tilt and baseline, the
 * whole line bent by a wave, over speckle and a few strokes. So it is an image a person reads,
 * not text to copy into a speech synthesiser. A pure function run on the CPU workers
 * (functions/platform/offload); the noise comes from `seed`, so two calls with different seeds differ.
 * Linear in the number of pixels.
 */
import { PNG } from "pngjs";
import { prng } from "../../media/engine/prng.js";

/** 5 columns × 7 rows; '#' is ink. */
const FONT: Record<string, string> = {
  A: ".###.#...##...#######...##...##...#",
  B: "####.#...##...#####.#...##...#####.",
  C: ".###.#...##....#....#....#...#.###.",
  D: "####.#...##...##...##...##...#####.",
  E: "######....#....####.#....#....#####",
  F: "######....#....####.#....#....#....",
  G: ".###.#...##....#.####...##...#.####",
  H: "#...##...##...#######...##...##...#",
  I: ".###...#....#....#....#....#...###.",
  J: "..###...#....#....#....#.#..#..##..",
  K: "#...##..#.#.#..##...#.#..#..#.#...#",
  L: "#....#....#....#....#....#....#####",
  M: "#...###.###.#.##.#.##...##...##...#",
  N: "#...###..##.#.##..###...##...##...#",
  O: ".###.#...##...##...##...##...#.###.",
  P: "####.#...##...#####.#....#....#....",
  Q: ".###.#...##...##...##.#.##..#..##.#",
  R: "####.#...##...#####.#.#..#..#.#...#",
  S: ".#####....#.....###.....#....#####.",
  T: "#####..#....#....#....#....#....#..",
  U: "#...##...##...##...##...##...#.###.",
  V: "#...##...##...##...##...#.#.#...#..",
  W: "#...##...##...##.#.##.#.###.###...#",
  X: "#...##...#.#.#...#...#.#.#...##...#",
  Y: "#...##...#.#.#...#....#....#....#..",
  Z: "#####....#...#...#...#...#....#####",
  // Letters with no decomposition in the word lists.
  Ł: "#....#....#.#..##...#....#....#####",
  Ø: ".###.#..###.#.##.#.##.#.###..#.###.",
};

/** Combining marks (after NFD) drawn above or below a capital: 5 columns × 2 rows. */
const MARKS: Record<string, { rows: string; below?: boolean }> = {
  "\u0301": { rows: "...#...#.." }, // acute
  "\u0300": { rows: ".#.....#.." }, // grave
  "\u0302": { rows: "..#...#.#." }, // circumflex
  "\u0303": { rows: ".#.#.#.#.." }, // tilde
  "\u0308": { rows: ".#.#......" }, // diaeresis
  "\u030A": { rows: "..#...#.#.".replace(/./g, (c, i) => (i === 2 || i === 6 || i === 8 ? "#" : ".")) }, // ring
  "\u0307": { rows: "..#......." }, // dot above
  "\u030C": { rows: ".#.#...#.." }, // caron
  "\u0327": { rows: "..#...##..", below: true }, // cedilla
  "\u0328": { rows: "...#....##", below: true }, // ogonek
};

export const CAPTCHA_SCALE = 5;
const CELL = CAPTCHA_SCALE;
const ADVANCE = 6 * CELL;
const LINE = 13 * CELL;
const MARGIN = 24;
export const CAPTCHA_MAX_WIDTH = 760;

interface Glyph {
  rows: string;
  marks: Array<{ rows: string; below?: boolean }>;
}

/** The glyphs of a word: capitals, accents as marks; characters the font lacks are skipped. */
export function glyphsOf(word: string): Glyph[] {
  const out: Glyph[] = [];
  for (const ch of word.toLocaleUpperCase()) {
    if (ch === " ") {
      out.push({ rows: "", marks: [] });
      continue;
    }
    if (FONT[ch]) {
      out.push({ rows: FONT[ch], marks: [] });
      continue;
    }
    const [base, ...marks] = [...ch.normalize("NFD")];
    if (!FONT[base]) continue;
    out.push({ rows: FONT[base], marks: marks.flatMap((m) => (MARKS[m] ? [MARKS[m]] : [])) });
  }
  return out;
}

/** True when the font draws every letter of the text (the captcha's language must be one it can). */
export function canDraw(text: string): boolean {
  for (const ch of text.toLocaleUpperCase()) {
    if (/[\s,.]/.test(ch) || FONT[ch]) continue;
    const [base, ...marks] = [...ch.normalize("NFD")];
    if (!FONT[base] || marks.some((m) => !MARKS[m])) return false;
  }
  return true;
}

export interface CaptchaTask {
  text: string;
  seed: number;
}

/** Lays the words out in lines no wider than CAPTCHA_MAX_WIDTH. */
function layout(words: Glyph[][]): Glyph[][][] {
  const lines: Glyph[][][] = [[]];
  let x = 0;
  for (const w of words) {
    const width = w.length * ADVANCE;
    if (lines.at(-1)!.length && x + ADVANCE * 2 + width > CAPTCHA_MAX_WIDTH - 2 * MARGIN) {
      lines.push([]);
      x = 0;
    }
    lines.at(-1)!.push(w);
    x += width + ADVANCE * 2;
  }
  return lines;
}

export function captchaPng(t: CaptchaTask): Uint8Array {
  const rand = prng(t.seed);
  const words = t.text
    .replace(/\.$/, "")
    .split(/,\s*/)
    .map(glyphsOf)
    .filter((w) => w.length);
  const lines = layout(words);
  const lineWidths = lines.map((l) => l.reduce((n, w) => n + w.length * ADVANCE, 0) + Math.max(0, l.length - 1) * ADVANCE * 2);
  const width = Math.min(CAPTCHA_MAX_WIDTH, Math.max(...lineWidths, 200) + 2 * MARGIN);
  const height = lines.length * LINE + 2 * MARGIN;
  const png = new PNG({ width, height });
  const px = png.data;

  // Paper: a pale vertical gradient with speckle.
  const tint = [236 + Math.floor(rand() * 14), 232 + Math.floor(rand() * 14), 244 + Math.floor(rand() * 10)];
  const gw = Math.ceil(width / 4);
  const grain = Float32Array.from({ length: gw * Math.ceil(height / 4) }, () => Math.round((rand() - 0.5) * 5) * 4);
  for (let y = 0; y < height; y++) {
    const shade = Math.round(-10 * (y / height));
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      // Coarse grain (4×4 px cells), so the PNG stays small.
      const n = grain[((y >> 2) * gw + (x >> 2)) % grain.length];
      px[i] = clamp(tint[0] + shade + n);
      px[i + 1] = clamp(tint[1] + shade + n);
      px[i + 2] = clamp(tint[2] + shade + n);
      px[i + 3] = 255;
    }
  }

  const ink = (cx: number, cy: number, r: number, rgb: number[]) => {
    const x0 = Math.max(0, Math.floor(cx - r));
    const x1 = Math.min(width - 1, Math.ceil(cx + r));
    const y0 = Math.max(0, Math.floor(cy - r));
    const y1 = Math.min(height - 1, Math.ceil(cy + r));
    for (let y = y0; y <= y1; y++)
      for (let x = x0; x <= x1; x++) {
        const d = Math.hypot(x - cx, y - cy);
        if (d > r) continue;
        const a = Math.min(1, (r - d) * 1.2);
        const i = (y * width + x) * 4;
        px[i] = Math.round(px[i] * (1 - a) + rgb[0] * a);
        px[i + 1] = Math.round(px[i + 1] * (1 - a) + rgb[1] * a);
        px[i + 2] = Math.round(px[i + 2] * (1 - a) + rgb[2] * a);
      }
  };

  // Strokes behind the text.
  const stroke = (rgb: number[], r: number) => {
    const y1 = rand() * height;
    const y2 = rand() * height;
    const steps = Math.ceil(width / 2);
    for (let s = 0; s <= steps; s++) {
      const f = s / steps;
      ink(f * width, y1 + (y2 - y1) * f + Math.sin(f * 9 + y1) * 6, r, rgb);
    }
  };
  for (let k = 0; k < 3; k++) stroke([180 + rand() * 30, 170 + rand() * 30, 205 + rand() * 30], 1 + rand());

  // The words: each letter on its own tilt and baseline, the line bent by a wave.
  const phase = rand() * Math.PI * 2;
  const amplitude = 3 + rand() * 4;
  lines.forEach((line, li) => {
    let x = MARGIN + (width - 2 * MARGIN - lineWidths[li]) / 2;
    const baseY = MARGIN + li * LINE + 3 * CELL;
    for (const word of line) {
      const rgb = [30 + rand() * 40, 25 + rand() * 30, 60 + rand() * 50];
      for (const g of word) {
        const angle = (rand() - 0.5) * 0.35;
        const dy = (rand() - 0.5) * CELL * 1.2;
        const cos = Math.cos(angle);
        const sin = Math.sin(angle);
        const ox = x + 2.5 * CELL;
        const oy = baseY + 3.5 * CELL + dy;
        const dot = (col: number, row: number) => {
          const lx = (col - 2) * CELL;
          const ly = (row - 3) * CELL;
          const gx = ox + lx * cos - ly * sin;
          const gy = oy + lx * sin + ly * cos + amplitude * Math.sin(gx / 37 + phase);
          ink(gx + (rand() - 0.5) * 1.2, gy + (rand() - 0.5) * 1.2, CELL * (0.68 + rand() * 0.14), rgb);
        };
        for (let i = 0; i < 35; i++) if (g.rows[i] === "#") dot(i % 5, Math.floor(i / 5));
        for (const m of g.marks)
          for (let i = 0; i < 10; i++) if (m.rows[i] === "#") dot(i % 5, m.below ? 7 + Math.floor(i / 5) : -3 + Math.floor(i / 5));
        x += ADVANCE;
      }
      x += ADVANCE * 2;
    }
  });

  // Strokes over the text, thinner than the letters, and a sprinkle of dots.
  for (let k = 0; k < 2; k++) stroke([90 + rand() * 60, 80 + rand() * 60, 120 + rand() * 60], 0.8);
  const dots = Math.floor((width * height) / 900);
  for (let k = 0; k < dots; k++) ink(rand() * width, rand() * height, 0.8 + rand(), [80 + rand() * 80, 70 + rand() * 80, 110 + rand() * 80]);

  const buf = PNG.sync.write(png, { colorType: 2 });
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}

const clamp = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : Math.round(v));
