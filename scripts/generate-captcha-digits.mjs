// Regenerates the audio captcha's digit clips (apps/server/assets/captcha-digits/0.wav … 9.wav)
// with Debian's espeak-ng and its Mandarin voice: `apt-get install -y espeak-ng`, then
// `node scripts/generate-captcha-digits.mjs`. The clips are committed; the server never runs a
// synthesizer or fetches anything (decision 035). Each clip is trimmed of its silence and written
// as 16-bit mono PCM at 16 kHz, which is what apps/server/src/modules/access/captcha/audio.ts reads.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const OUT_DIR = fileURLToPath(new URL('../apps/server/assets/captcha-digits/', import.meta.url));
const RATE = 16_000;
// Written in pinyin for the Mandarin voice's pinyin reading (cmn-latn-pinyin): Debian's cmn
// dictionary lacks most digits as characters and spells them out in English. 一 is read 幺 (yāo),
// as on the phone: 一 and 七 sound alike through noise.
const WORDS = ['ling2', 'yao1', 'er4', 'san1', 'si4', 'wu3', 'liu4', 'qi1', 'ba1', 'jiu3'];

function readPcm(buf) {
  let offset = 12;
  let rate = 0;
  while (offset + 8 <= buf.length) {
    const id = buf.toString('ascii', offset, offset + 4);
    const size = buf.readUInt32LE(offset + 4);
    if (id === 'fmt ') rate = buf.readUInt32LE(offset + 12);
    if (id === 'data') {
      // espeak-ng writes 0xFFFFFFFF as the size when it streams; the chunk then runs to the end.
      const end = Math.min(buf.length, offset + 8 + size);
      const samples = new Int16Array((end - offset - 8) >> 1);
      for (let i = 0; i < samples.length; i++) samples[i] = buf.readInt16LE(offset + 8 + i * 2);
      return { rate, samples };
    }
    offset += 8 + size + (size & 1);
  }
  throw new Error('no data chunk');
}

function trim(samples, threshold = 300) {
  let start = 0;
  let end = samples.length;
  while (start < end && Math.abs(samples[start]) < threshold) start++;
  while (end > start && Math.abs(samples[end - 1]) < threshold) end--;
  return samples.subarray(Math.max(0, start - 160), Math.min(samples.length, end + 160));
}

function resample(samples, from, to) {
  const out = new Int16Array(Math.floor((samples.length * to) / from));
  for (let i = 0; i < out.length; i++) {
    const x = (i * from) / to;
    const i0 = Math.floor(x);
    const a = samples[i0] ?? 0;
    const b = samples[i0 + 1] ?? a;
    out[i] = Math.round(a + (b - a) * (x - i0));
  }
  return out;
}

function wav(samples, rate) {
  const buf = Buffer.alloc(44 + samples.length * 2);
  buf.write('RIFF', 0, 'ascii');
  buf.writeUInt32LE(36 + samples.length * 2, 4);
  buf.write('WAVEfmt ', 8, 'ascii');
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20);
  buf.writeUInt16LE(1, 22);
  buf.writeUInt32LE(rate, 24);
  buf.writeUInt32LE(rate * 2, 28);
  buf.writeUInt16LE(2, 32);
  buf.writeUInt16LE(16, 34);
  buf.write('data', 36, 'ascii');
  buf.writeUInt32LE(samples.length * 2, 40);
  samples.forEach((s, i) => buf.writeInt16LE(s, 44 + i * 2));
  return buf;
}

const tmp = mkdtempSync(path.join(tmpdir(), 'captcha-digits-'));
try {
  WORDS.forEach((word, digit) => {
    const file = path.join(tmp, `${digit}.wav`);
    execFileSync('espeak-ng', ['-v', 'cmn-latn-pinyin', '-s', '140', '-a', '180', '-w', file, word]);
    const { rate, samples } = readPcm(readFileSync(file));
    const clip = resample(trim(samples), rate, RATE);
    writeFileSync(path.join(OUT_DIR, `${digit}.wav`), wav(clip, RATE));
    console.log(`${digit}.wav ${word} ${(clip.length / RATE).toFixed(2)} s`);
  });
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
