/** What a QR code is read from: a camera frame (the video) or a still picture. */
export type QrSource = HTMLVideoElement | HTMLImageElement | HTMLCanvasElement;

export interface QrReader {
  /** The text of a QR code in the source, or null when none is readable in it. */
  read(source: QrSource): Promise<string | null>;
  /** Which decoder answers: the browser's own, or the JavaScript one (every browser). */
  kind: 'native' | 'js';
}

/** The browser's barcode reader (Chrome on Android, Safari 17+); not in TypeScript's DOM types yet. */
interface BarcodeDetectorLike {
  detect(source: QrSource): Promise<{ rawValue: string }[]>;
}
interface BarcodeDetectorClass {
  new (options: { formats: string[] }): BarcodeDetectorLike;
  getSupportedFormats?: () => Promise<string[]>;
}

/** Frames are scaled down to this width before decoding: enough for a ticket held at the camera. */
const MAX_WIDTH = 800;

function sizeOf(source: QrSource): { width: number; height: number } {
  if (source instanceof HTMLVideoElement) return { width: source.videoWidth, height: source.videoHeight };
  if (source instanceof HTMLImageElement) return { width: source.naturalWidth, height: source.naturalHeight };
  return { width: source.width, height: source.height };
}

/**
 * The JavaScript decoder (jsQR, loaded on first use so no other page pays for it): the frame is
 * drawn on a canvas and its pixels searched for a code, normal and inverted.
 */
async function jsReader(): Promise<QrReader> {
  const { default: jsQR } = await import('jsqr');
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d', { willReadFrequently: true });
  return {
    kind: 'js',
    async read(source) {
      const { width, height } = sizeOf(source);
      if (!context || width === 0 || height === 0) return null;
      const scale = Math.min(1, MAX_WIDTH / width);
      canvas.width = Math.round(width * scale);
      canvas.height = Math.round(height * scale);
      context.drawImage(source, 0, 0, canvas.width, canvas.height);
      const pixels = context.getImageData(0, 0, canvas.width, canvas.height);
      return jsQR(pixels.data, canvas.width, canvas.height, { inversionAttempts: 'attemptBoth' })?.data || null;
    },
  };
}

/**
 * A QR reader for the door check: the browser's BarcodeDetector where it reads QR codes (fast,
 * native), else the JavaScript decoder, which works in every browser with a camera (Safari on
 * iPhones before 17, Firefox, Chromium on desktops). A native reader that fails mid-way hands over
 * to the JavaScript one.
 */
export async function createQrReader(): Promise<QrReader> {
  const Native = (globalThis as { BarcodeDetector?: BarcodeDetectorClass }).BarcodeDetector;
  const formats = Native ? await Native.getSupportedFormats?.().catch(() => []) : [];
  if (!Native || !formats?.includes('qr_code')) return jsReader();
  const detector = new Native({ formats: ['qr_code'] });
  let fallback: Promise<QrReader> | undefined;
  return {
    kind: 'native',
    async read(source) {
      try {
        return (await detector.detect(source))[0]?.rawValue || null;
      } catch {
        fallback ??= jsReader();
        return (await fallback).read(source);
      }
    },
  };
}
