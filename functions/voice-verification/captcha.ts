/**
 * The professional clone's captcha: the sentence to read as an image (SVG). Each word is drawn
 * on its own slight tilt and baseline over a few strokes, so the text is read by the person
 * holding the microphone rather than copied into a speech synthesiser. Deterministic for a text.
 */
import { hashSeed, prng } from "../engine/prng.js";

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export function captchaSvg(text: string): string {
  const rand = prng(hashSeed("captcha", text));
  const words = text.replace(/\.$/, "").split(/,\s*/);
  const width = 640;
  const height = 60 + 50 * Math.ceil(words.length / 3);
  const parts: string[] = [];
  for (let i = 0; i < 6; i++) {
    const y1 = 20 + rand() * (height - 40);
    const y2 = 20 + rand() * (height - 40);
    parts.push(`<line x1="0" y1="${y1.toFixed(1)}" x2="${width}" y2="${y2.toFixed(1)}" stroke="#c9c4d9" stroke-width="${(1 + rand() * 2).toFixed(1)}"/>`);
  }
  words.forEach((w, i) => {
    const x = 40 + (i % 3) * 200 + rand() * 20;
    const y = 60 + Math.floor(i / 3) * 50 + (rand() - 0.5) * 10;
    const angle = (rand() - 0.5) * 14;
    parts.push(`<text x="${x.toFixed(1)}" y="${y.toFixed(1)}" transform="rotate(${angle.toFixed(1)} ${x.toFixed(1)} ${y.toFixed(1)})" font-family="Georgia, serif" font-size="30" fill="#2a2540">${esc(w)}</text>`);
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${esc(text)}"><rect width="100%" height="100%" fill="#f6f4fb"/>${parts.join("")}</svg>`;
}
