import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PHOTO_RULE_TEXT } from '@zhikaoyun/shared';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  backgroundOf,
  backgroundProblem,
  blurProblem,
  brightnessProblem,
  colourOf,
  matchesBackground,
  photoProblem,
  proportionProblem,
  WORK_WIDTH,
  type Pixels,
} from '../src/modules/access/accounts/photo-rules';
import { processPhoto } from '../src/modules/access/accounts/photo';
import { BAD_PHOTOS, GOOD_PHOTOS } from './helpers/photo-fixtures';

const DIR = path.resolve(__dirname, 'fixtures/photos');

beforeAll(async () => {
  if (process.env.WRITE_PHOTO_FIXTURES !== '1') return;
  mkdirSync(DIR, { recursive: true });
  for (const [name, make] of Object.entries({ ...GOOD_PHOTOS, ...BAD_PHOTOS })) writeFileSync(path.join(DIR, name), await make());
});

const fixture = (name: string) => readFileSync(path.join(DIR, name));

async function pixels(file: Buffer): Promise<{ p: Pixels; width: number; height: number }> {
  const meta = await sharp(file).metadata();
  const { data, info } = await sharp(file)
    .flatten({ background: '#ffffff' })
    .resize({ width: WORK_WIDTH })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { p: { width: info.width, height: info.height, data }, width: meta.width ?? 0, height: meta.height ?? 0 };
}

describe('photo fixtures', () => {
  it('are committed, each drawn by test/helpers/photo-fixtures.ts', () => {
    for (const name of [...Object.keys(GOOD_PHOTOS), ...Object.keys(BAD_PHOTOS)]) expect(existsSync(path.join(DIR, name)), name).toBe(true);
  });
});

describe('each photo rule, a pure function of the pixels', () => {
  it('proportions: portrait 5:7 to 3:4 passes; landscape and a narrow strip fail', () => {
    expect(proportionProblem(295, 413)).toBeNull();
    expect(proportionProblem(600, 800)).toBeNull();
    expect(proportionProblem(560, 400)).toBe('proportion');
    expect(proportionProblem(200, 400)).toBe('proportion');
  });

  it('the landscape fixture fails proportions first', async () => {
    const { p, width, height } = await pixels(fixture('landscape.jpg'));
    expect(photoProblem(p, { width, height })).toBe('proportion');
  });

  it('brightness: the dark fixture is too dark, the overexposed one too bright', async () => {
    expect(brightnessProblem((await pixels(fixture('dark.jpg'))).p)).toBe('dark');
    expect(brightnessProblem((await pixels(fixture('bright.jpg'))).p)).toBe('bright');
  });

  it('sharpness: the blurred fixture fails, and only for blur', async () => {
    const { p, width, height } = await pixels(fixture('blurred.jpg'));
    expect(blurProblem(p)).toBe('blurred');
    expect(brightnessProblem(p)).toBeNull();
    expect(photoProblem(p, { width, height })).toBe('blurred');
  });

  it('background: a cluttered room fails, and only for the background', async () => {
    const { p, width, height } = await pixels(fixture('busy-background.jpg'));
    expect(backgroundProblem(p)).toBe('background');
    expect(backgroundOf(p).spread).toBeGreaterThan(16);
    expect(photoProblem(p, { width, height })).toBe('background');
  });

  it('background colours: white, grey, light blue, blue and red are ID colours; beige and green are not', () => {
    expect(colourOf([255, 255, 255])).toBe('white');
    expect(colourOf([200, 202, 205])).toBe('gray');
    expect(colourOf([200, 220, 245])).toBe('light-blue');
    expect(colourOf([67, 142, 219])).toBe('blue');
    expect(colourOf([217, 0, 27])).toBe('red');
    expect(colourOf([222, 200, 160])).toBeNull();
    expect(colourOf([90, 160, 90])).toBeNull();
  });

  it('every good photo passes every rule', async () => {
    for (const name of Object.keys(GOOD_PHOTOS)) {
      const { p, width, height } = await pixels(fixture(name));
      expect(photoProblem(p, { width, height }), name).toBeNull();
    }
  });

  it("an exam's required colour: the red photo is red, the white one is not blue", async () => {
    const red = backgroundOf((await pixels(fixture('good-red-295x413.jpg'))).p);
    const white = backgroundOf((await pixels(fixture('good-white-390x567.jpg'))).p);
    const blue = backgroundOf((await pixels(fixture('good-blue-413x579.jpg'))).p);
    expect(matchesBackground(red, 'red')).toBe(true);
    expect(matchesBackground(white, 'red')).toBe(false);
    expect(matchesBackground(white, 'blue')).toBe(false);
    expect(matchesBackground(white, 'white')).toBe(true);
    expect(matchesBackground(blue, 'blue')).toBe(true);
  });
});

describe('processPhoto refuses each bad fixture with its own reason', () => {
  const cases: [string, string][] = [
    ['busy-background.jpg', PHOTO_RULE_TEXT.background],
    ['blurred.jpg', PHOTO_RULE_TEXT.blurred],
    ['dark.jpg', PHOTO_RULE_TEXT.dark],
    ['bright.jpg', PHOTO_RULE_TEXT.bright],
    ['landscape.jpg', PHOTO_RULE_TEXT.proportion],
  ];
  for (const [name, text] of cases) {
    it(`${name}: 「${text}」`, async () => {
      await expect(processPhoto(fixture(name))).rejects.toMatchObject({ message: text });
    });
  }

  it('and stores every good one', async () => {
    for (const name of Object.keys(GOOD_PHOTOS))
      await expect(processPhoto(fixture(name)), name).resolves.toMatchObject({ mime: 'image/jpeg' });
  });
});
