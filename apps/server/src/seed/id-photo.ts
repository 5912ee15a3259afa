import sharp from 'sharp';

/**
 * The one good ID photo of the demo, the tests, the browser tests and the benches: a drawn
 * head-and-shoulders portrait on an even light background, with the edges (hair, eyes, collar,
 * pinstripes) a sharp photo has, so it passes every photo rule (issue 33). Drawn from the same
 * SVG every time: the bytes are the same on every run.
 */
export function idPhotoSvg(opts: { width?: number; height?: number; background?: string } = {}): string {
  const w = opts.width ?? 295;
  const h = opts.height ?? 413;
  const bg = opts.background ?? '#eef3fb';
  const stripes = Array.from({ length: 24 }, (_, i) => `<line x1="${22 + i * 11}" y1="300" x2="${12 + i * 11}" y2="413"/>`).join('');
  // Drawn on a 295×413 canvas, stretched to the size asked for.
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 295 413" preserveAspectRatio="none">
<rect width="295" height="413" fill="${bg}"/>
<path d="M18 413 C24 330 70 292 147.5 290 C225 292 271 330 277 413 Z" fill="#24324a"/>
<g stroke="#3d4d6b" stroke-width="2">${stripes}</g>
<path d="M122 292 L147.5 345 L173 292 Z" fill="#f7f7f7"/>
<path d="M140 300 L147.5 360 L155 300 Z" fill="#8c1c24"/>
<rect x="128" y="236" width="39" height="60" fill="#e2b594"/>
<ellipse cx="147.5" cy="180" rx="58" ry="72" fill="#edc3a3"/>
<path d="M88 178 C82 110 118 92 150 94 C188 95 214 118 207 178 C200 140 180 126 150 126 C118 126 96 140 88 178 Z" fill="#1b1410"/>
<g fill="#fff"><ellipse cx="125" cy="178" rx="11" ry="6"/><ellipse cx="170" cy="178" rx="11" ry="6"/></g>
<g fill="#2a1d16"><circle cx="125" cy="178" r="4.5"/><circle cx="170" cy="178" r="4.5"/></g>
<g stroke="#2a1d16" stroke-width="4" stroke-linecap="round"><line x1="112" y1="162" x2="137" y2="160"/><line x1="158" y1="160" x2="183" y2="162"/></g>
<path d="M147 186 L141 210 L153 210" fill="none" stroke="#b98566" stroke-width="2.5"/>
<path d="M132 226 Q147.5 236 163 226" fill="none" stroke="#a4473f" stroke-width="4" stroke-linecap="round"/>
<g fill="#d9a585"><ellipse cx="89" cy="186" rx="7" ry="14"/><ellipse cx="206" cy="186" rx="7" ry="14"/></g>
</svg>`;
}

/** The good ID photo as a JPEG (295×413 on light blue unless asked otherwise). */
export function idPhotoJpeg(opts: { width?: number; height?: number; background?: string } = {}): Promise<Buffer> {
  return sharp(Buffer.from(idPhotoSvg(opts)))
    .jpeg({ quality: 90 })
    .toBuffer();
}
