import { existsSync, readFileSync } from 'node:fs';
import { randomBytes, randomInt } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The clips' and the output's format: 16-bit mono PCM (scripts/generate-captcha-digits.mjs writes them so). */
export const CAPTCHA_AUDIO_RATE = 16_000;
const LEAD_MS = 500;
const GAP_MS = [350, 600] as const;
const NOISE_LEVEL = 1800; // of 32767: audible hiss under speech at about -25 dB

/**
 * Where the committed clips are: apps/server/assets/captcha-digits, found by walking up from this
 * module, wherever it runs from (the bundle apps/server/dist/server.js, a test's bundle in a folder
 * of dist/, or the sources under `npm run dev` and the tests).
 */
function clipsDir(): string {
  const looked: string[] = [];
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, 'assets', 'captcha-digits');
    if (existsSync(path.join(candidate, '0.wav'))) return `${candidate}${path.sep}`;
    looked.push(candidate);
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`captcha digit clips not found (looked in ${looked.join(', ')})`);
    dir = up;
  }
}

/** The samples of a 16-bit mono PCM WAV at CAPTCHA_AUDIO_RATE; anything else is a broken asset. */
export function readWav(buf: Buffer): Int16Array {
  let offset = 12;
  let format: { channels: number; rate: number; bits: number } | null = null;
  while (offset + 8 <= buf.length) {
    const id = buf.toString('ascii', offset, offset + 4);
    const size = buf.readUInt32LE(offset + 4);
    if (id === 'fmt ')
      format = { channels: buf.readUInt16LE(offset + 10), rate: buf.readUInt32LE(offset + 12), bits: buf.readUInt16LE(offset + 22) };
    if (id === 'data') {
      if (!format || format.channels !== 1 || format.rate !== CAPTCHA_AUDIO_RATE || format.bits !== 16)
        throw new Error('captcha clip is not 16-bit mono 16 kHz');
      const samples = new Int16Array(Math.min(size, buf.length - offset - 8) >> 1);
      for (let i = 0; i < samples.length; i++) samples[i] = buf.readInt16LE(offset + 8 + i * 2);
      return samples;
    }
    offset += 8 + size + (size & 1);
  }
  throw new Error('captcha clip has no data chunk');
}

function writeWav(samples: Int16Array): Buffer {
  const buf = Buffer.alloc(44 + samples.length * 2);
  buf.write('RIFF', 0, 'ascii');
  buf.writeUInt32LE(36 + samples.length * 2, 4);
  buf.write('WAVEfmt ', 8, 'ascii');
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20); // PCM
  buf.writeUInt16LE(1, 22); // mono
  buf.writeUInt32LE(CAPTCHA_AUDIO_RATE, 24);
  buf.writeUInt32LE(CAPTCHA_AUDIO_RATE * 2, 28);
  buf.writeUInt16LE(2, 32);
  buf.writeUInt16LE(16, 34);
  buf.write('data', 36, 'ascii');
  buf.writeUInt32LE(samples.length * 2, 40);
  for (let i = 0; i < samples.length; i++) buf.writeInt16LE(samples[i] ?? 0, 44 + i * 2);
  return buf;
}

const ms = (n: number) => Math.round((n * CAPTCHA_AUDIO_RATE) / 1000);

export interface CaptchaVoice {
  /** A WAV speaking `code` (digits only) with noise underneath; every call differs (gaps, loudness, noise). */
  speak(code: string): Buffer;
}

/** Reads the ten clips once, at start-up: a missing asset fails the start, not a candidate's request. */
export function createCaptchaVoice(dir: string = clipsDir()): CaptchaVoice {
  const clips = Array.from({ length: 10 }, (_, digit) => readWav(readFileSync(`${dir}${digit}.wav`)));
  return {
    speak(code) {
      const parts: { at: number; clip: Int16Array; gain: number }[] = [];
      let at = ms(LEAD_MS);
      [...code].forEach((ch, index) => {
        const clip = clips[Number(ch)];
        if (!/^[0-9]$/.test(ch) || !clip) throw new Error('the audio captcha speaks digits only');
        parts.push({ at, clip, gain: 0.75 + randomInt(0, 26) / 100 });
        at += clip.length;
        // A random gap between two digits only: the tail is LEAD_MS like the lead-in, whatever the gaps.
        if (index < code.length - 1) at += ms(randomInt(GAP_MS[0], GAP_MS[1] + 1));
      });
      const out = new Int16Array(at + ms(LEAD_MS));
      // Noise: white noise through a one-pole low-pass (a softer hiss than white), with a slow swell,
      // so that the silence between digits does not mark where each clip starts and ends.
      const white = randomBytes(out.length * 2);
      let low = 0;
      const swell = 0.5 + randomInt(0, 50) / 100;
      for (let i = 0; i < out.length; i++) {
        low += 0.35 * (white.readInt16LE(i * 2) / 32768 - low);
        const level = NOISE_LEVEL * (0.8 + 0.2 * Math.sin((i / CAPTCHA_AUDIO_RATE) * Math.PI * swell));
        out[i] = Math.round(low * level * 2);
      }
      for (const { at: start, clip, gain } of parts) {
        for (let i = 0; i < clip.length && start + i < out.length; i++) {
          const mixed = (out[start + i] ?? 0) + (clip[i] ?? 0) * gain;
          out[start + i] = Math.max(-32768, Math.min(32767, Math.round(mixed)));
        }
      }
      return writeWav(out);
    },
  };
}
