import { ERROR_TEXT, ErrorCode } from '@zhikaoyun/shared';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPTCHA_AUDIO_RATE, readWav } from '../src/modules/access/captcha/audio';
import { deriveKey, hmac } from '../src/lib/crypto-suite';
import { createTestApp, TEST_DATA_KEY, type TestApp } from './helpers/app';
import { DATABASES } from './helpers/databases';

const CLIPS = Array.from(
  { length: 10 },
  (_, d) => readWav(readFileSync(new URL(`../assets/captcha-digits/${d}.wav`, import.meta.url))).length,
);

/** The code a captcha's image shows, as the server derives it (decision 035), from the test's data key. */
function codeOf(captchaId: string): string {
  const key = deriveKey('standard', TEST_DATA_KEY, 'zhikaoyun captcha code v1', 32);
  return String(hmac('standard', key, captchaId).readUInt32BE(0) % 10_000).padStart(4, '0');
}

/** Header fields of a canonical PCM WAV, and its samples. */
function parseWav(buf: Buffer) {
  return {
    riff: buf.toString('ascii', 0, 4),
    riffSize: buf.readUInt32LE(4),
    wave: buf.toString('ascii', 8, 12),
    fmt: buf.toString('ascii', 12, 16),
    format: buf.readUInt16LE(20),
    channels: buf.readUInt16LE(22),
    rate: buf.readUInt32LE(24),
    byteRate: buf.readUInt32LE(28),
    bits: buf.readUInt16LE(34),
    data: buf.toString('ascii', 36, 40),
    dataSize: buf.readUInt32LE(40),
    samples: readWav(buf),
  };
}

/** Stretches of speech: 20 ms windows well above the noise floor, joined across short dips. */
function speechBursts(samples: Int16Array): number {
  const win = CAPTCHA_AUDIO_RATE / 50;
  let bursts = 0;
  let quiet = Infinity;
  for (let start = 0; start + win <= samples.length; start += win) {
    let sum = 0;
    for (let i = start; i < start + win; i++) sum += (samples[i] ?? 0) ** 2;
    const loud = Math.sqrt(sum / win) > 3000;
    if (loud && quiet >= 10) bursts++; // 200 ms of quiet or more between two digits
    quiet = loud ? 0 : quiet + 1;
  }
  return bursts;
}

for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(`audio captcha on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`, () => {
    let t: TestApp;
    let officeId: number;
    beforeAll(async () => {
      t = await createTestApp(kind);
      officeId = (await t.app.inject({ method: 'GET', url: '/api/getWSystem' })).json<{ data: { officeId: number } }>().data.officeId;
    });
    afterAll(async () => {
      await t?.close();
    });

    const issue = async (prefix = '/api') =>
      (await t.app.inject({ method: 'GET', url: `${prefix}/getCode` })).json<{ data: { captchaId: string } }>().data.captchaId;
    const audio = (id: string, prefix = '/api') => t.app.inject({ method: 'GET', url: `${prefix}/getCaptchaAudio?captchaId=${id}` });

    it('speaks the code the image shows, four digits in noise, as a valid WAV', async () => {
      const id = await issue();
      const code = codeOf(id);
      expect(code).toMatch(/^[0-9]{4}$/);
      const res = await audio(id);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('audio/wav');
      expect(res.headers['cache-control']).toBe('no-store');
      const wav = parseWav(res.rawPayload);
      expect(wav).toMatchObject({
        riff: 'RIFF',
        wave: 'WAVE',
        fmt: 'fmt ',
        format: 1,
        channels: 1,
        rate: 16_000,
        byteRate: 32_000,
        bits: 16,
        data: 'data',
      });
      expect(wav.riffSize).toBe(res.rawPayload.length - 8);
      expect(wav.dataSize).toBe(res.rawPayload.length - 44);

      // Lead-in and tail (0.5 s each), the four clips, three gaps of 0.35–0.6 s.
      const spoken = [...code].reduce((sum, d) => sum + (CLIPS[Number(d)] ?? 0), 0) / 16_000;
      const seconds = wav.samples.length / 16_000;
      expect(seconds).toBeGreaterThanOrEqual(1 + spoken + 3 * 0.35 - 0.01);
      expect(seconds).toBeLessThanOrEqual(1 + spoken + 3 * 0.6 + 0.01);
      expect(speechBursts(wav.samples)).toBe(4);
      // Noise under the silences: never a flat zero between the digits.
      expect(wav.samples.subarray(0, 4000).some((s) => Math.abs(s) > 200)).toBe(true);

      // Played again until answered (each time with fresh noise); the spoken code is the image's answer.
      const again = await audio(id);
      expect(again.statusCode).toBe(200);
      expect(again.rawPayload.equals(res.rawPayload)).toBe(false);
      expect(await t.app.services.captcha.verify(officeId, id, code)).toBe(true);

      // Single use, shared with the image: once answered, the audio is gone too.
      const used = await audio(id);
      expect(used.json()).toMatchObject({ success: false, errorCode: ErrorCode.CaptchaInvalid, msg: ERROR_TEXT[ErrorCode.CaptchaInvalid] });
    });

    it('refuses an expired captcha, an unknown one and a malformed id with the catalogue’s messages', async () => {
      const id = await issue();
      await t.db.kysely.updateTable('captcha').set({ expires_at: '2000-01-01T00:00:00.000Z' }).where('id', '=', id).execute();
      expect((await audio(id)).json()).toMatchObject({
        success: false,
        errorCode: ErrorCode.CaptchaInvalid,
        msg: ERROR_TEXT[ErrorCode.CaptchaInvalid],
      });
      expect((await audio('0'.repeat(32))).json()).toMatchObject({ success: false, errorCode: ErrorCode.CaptchaInvalid });
      const bad = (await audio('nope')).json<{ success: boolean; errorCode: number; msg: string }>();
      expect(bad).toMatchObject({ success: false, errorCode: ErrorCode.Validation });
      expect(bad.msg).toContain('验证码编号有误');
    });

    it('serves the platform console’s captcha too, from its own table', async () => {
      const id = await issue('/api/platform');
      const res = await audio(id, '/api/platform');
      expect(res.headers['content-type']).toBe('audio/wav');
      expect(speechBursts(parseWav(res.rawPayload).samples)).toBe(4);
      // An office's audio route does not know the operator's captchas.
      expect((await audio(id)).json()).toMatchObject({ success: false, errorCode: ErrorCode.CaptchaInvalid });
    });
  });
}
