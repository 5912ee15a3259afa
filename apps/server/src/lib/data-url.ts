/** A stored image as a data: URL, ready for an <img src>. */
export function dataUrl(mime: string, data: Buffer | Uint8Array): string {
  return `data:${mime};base64,${Buffer.from(data).toString('base64')}`;
}
