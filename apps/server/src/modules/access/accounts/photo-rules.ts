import type { PhotoBackground, PhotoRule } from '@zhikaoyun/shared';

/**
 * The ID photo's rules (issue 33), each a pure function of the photo's pixels: RGB, 3 bytes a
 * pixel, at the working size `photo.ts` reduces every upload to (so the numbers below mean the
 * same for a 295×413 upload and a 3000×4000 one).
 */
export interface Pixels {
  width: number;
  height: number;
  /** RGB, row by row. */
  data: Uint8Array;
}

/** Uploads are measured at this width (the height keeps the proportions). */
export const WORK_WIDTH = 240;

/** Width : height of a portrait ID photo: 5:7 (295×413) to 3:4, with room for a loose crop. */
export const PROPORTION = { min: 0.6, max: 0.85 } as const;
/** Mean brightness (0–255) of the face region. */
export const BRIGHTNESS = { dark: 60, bright: 235 } as const;
/** Variance of the Laplacian over the face region: below it, no edge in the face is sharp. */
export const SHARPNESS_MIN = 30;
/** Per-channel standard deviation of the background strips: above it, the background is not one colour. */
export const BACKGROUND_SPREAD_MAX = 16;

const luma = (r: number, g: number, b: number) => 0.299 * r + 0.587 * g + 0.114 * b;

/**
 * A rectangle given as fractions of the photo, in pixels: [x from, x to, y from, y to), never empty.
 * The rules loop over it with plain indexes: a generator yielding a tuple a pixel took about 10 ms
 * of the event loop an upload in the rush bench's profile.
 */
function bounds(p: Pixels, x0: number, y0: number, x1: number, y1: number): [number, number, number, number] {
  const xa = Math.floor(p.width * x0);
  const ya = Math.floor(p.height * y0);
  return [xa, Math.max(xa + 1, Math.floor(p.width * x1)), ya, Math.max(ya + 1, Math.floor(p.height * y1))];
}

/** The face region: where the face of a centred portrait is. */
const FACE = [0.25, 0.2, 0.75, 0.7] as const;

export function proportionProblem(width: number, height: number): PhotoRule | null {
  const ratio = width / height;
  return ratio < PROPORTION.min || ratio > PROPORTION.max ? 'proportion' : null;
}

export function brightnessOf(p: Pixels): number {
  const [xa, xb, ya, yb] = bounds(p, ...FACE);
  const d = p.data;
  let sum = 0;
  for (let y = ya; y < yb; y += 1) {
    for (let i = (y * p.width + xa) * 3, end = (y * p.width + xb) * 3; i < end; i += 3) {
      sum += luma(d[i]!, d[i + 1]!, d[i + 2]!);
    }
  }
  const n = (xb - xa) * (yb - ya);
  return n === 0 ? 0 : sum / n;
}

export function brightnessProblem(p: Pixels): 'dark' | 'bright' | null {
  const mean = brightnessOf(p);
  if (mean < BRIGHTNESS.dark) return 'dark';
  if (mean > BRIGHTNESS.bright) return 'bright';
  return null;
}

/** Variance of the 4-neighbour Laplacian of the brightness over the face region. */
export function sharpnessOf(p: Pixels): number {
  const { width: w, height: h, data } = p;
  const lum = (x: number, y: number) => {
    const i = (y * w + x) * 3;
    return luma(data[i]!, data[i + 1]!, data[i + 2]!);
  };
  const [x0, y0, x1, y1] = [
    Math.max(1, Math.floor(w * FACE[0])),
    Math.max(1, Math.floor(h * FACE[1])),
    Math.min(w - 1, Math.floor(w * FACE[2])),
    Math.min(h - 1, Math.floor(h * FACE[3])),
  ];
  let sum = 0;
  let sq = 0;
  let n = 0;
  for (let y = y0; y < y1; y += 1) {
    for (let x = x0; x < x1; x += 1) {
      const v = lum(x - 1, y) + lum(x + 1, y) + lum(x, y - 1) + lum(x, y + 1) - 4 * lum(x, y);
      sum += v;
      sq += v * v;
      n += 1;
    }
  }
  if (n === 0) return 0;
  const mean = sum / n;
  return sq / n - mean * mean;
}

export function blurProblem(p: Pixels): 'blurred' | null {
  return sharpnessOf(p) < SHARPNESS_MIN ? 'blurred' : null;
}

export interface Background {
  /** Mean colour of the strips along the top and the upper sides (where no person is). */
  mean: [number, number, number];
  /** The largest per-channel standard deviation there. */
  spread: number;
  /** The colour it is, or null: none an ID photo has. */
  colour: 'white' | 'gray' | 'light-blue' | 'blue' | 'red' | null;
}

export function backgroundOf(p: Pixels): Background {
  const strips: readonly (readonly [number, number, number, number])[] = [
    [0, 0, 1, 0.07],
    [0, 0.07, 0.08, 0.45],
    [0.92, 0.07, 1, 0.45],
  ];
  const sum = [0, 0, 0];
  const sq = [0, 0, 0];
  const d = p.data;
  let n = 0;
  for (const s of strips) {
    const [xa, xb, ya, yb] = bounds(p, s[0], s[1], s[2], s[3]);
    for (let y = ya; y < yb; y += 1) {
      for (let i = (y * p.width + xa) * 3, end = (y * p.width + xb) * 3; i < end; i += 3) {
        for (let c = 0; c < 3; c += 1) {
          const v = d[i + c]!;
          sum[c]! += v;
          sq[c]! += v * v;
        }
        n += 1;
      }
    }
  }
  const mean = sum.map((v) => v / n) as [number, number, number];
  const spread = Math.max(...sq.map((v, c) => Math.sqrt(Math.max(0, v / n - mean[c]! ** 2))));
  return { mean, spread, colour: colourOf(mean) };
}

/** The ID-photo colour a mean background colour is, or null. */
export function colourOf([r, g, b]: readonly [number, number, number]): Background['colour'] {
  const lo = Math.min(r, g, b);
  const hi = Math.max(r, g, b);
  if (hi - lo <= 20 && lo >= 225) return 'white';
  if (hi - lo <= 20 && lo >= 165) return 'gray';
  if (b >= 170 && b - r >= 15 && b >= g && lo >= 150) return 'light-blue';
  if (b >= 150 && b - r >= 60 && b >= g) return 'blue';
  if (r >= 150 && r - g >= 80 && r - b >= 60) return 'red';
  return null;
}

/** One even colour that an ID photo has: white, light grey, (light) blue, or the red of some exams. */
export function backgroundProblem(p: Pixels): 'background' | null {
  const bg = backgroundOf(p);
  return bg.spread > BACKGROUND_SPREAD_MAX || bg.colour === null ? 'background' : null;
}

/** Whether a background is the colour an exam requires. */
export function matchesBackground(bg: Background, required: PhotoBackground): boolean {
  if (bg.spread > BACKGROUND_SPREAD_MAX) return false;
  if (required === 'white') return bg.colour === 'white';
  if (required === 'blue') return bg.colour === 'blue' || bg.colour === 'light-blue';
  return bg.colour === 'red';
}

/**
 * The first rule a photo fails, in the order a person fixes them: the crop, the light, the focus,
 * then what is behind them (a dark or blurred photo's background is not judged).
 */
export function photoProblem(p: Pixels, original: { width: number; height: number }): PhotoRule | null {
  return proportionProblem(original.width, original.height) ?? brightnessProblem(p) ?? blurProblem(p) ?? backgroundProblem(p);
}
