import { ATTACHMENT_EXTENSIONS } from '@zhikaoyun/shared';

type Extension = (typeof ATTACHMENT_EXTENSIONS)[number];

const MIME: Readonly<Record<Extension, string>> = {
  pdf: 'application/pdf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  zip: 'application/zip',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  txt: 'text/plain; charset=utf-8',
};

const starts = (b: Buffer, hex: string) => b.subarray(0, hex.length / 2).equals(Buffer.from(hex, 'hex'));
const ZIP = '504b0304';
const OLE = 'd0cf11e0a1b11ae1';

/** The content must be what the name says: a renamed script or page is refused. */
const MAGIC: Readonly<Record<Extension, (b: Buffer) => boolean>> = {
  pdf: (b) => starts(b, '25504446'),
  doc: (b) => starts(b, OLE),
  xls: (b) => starts(b, OLE),
  docx: (b) => starts(b, ZIP),
  xlsx: (b) => starts(b, ZIP),
  zip: (b) => starts(b, ZIP),
  jpg: (b) => starts(b, 'ffd8ff'),
  jpeg: (b) => starts(b, 'ffd8ff'),
  png: (b) => starts(b, '89504e470d0a1a0a'),
  txt: (b) => !b.includes(0) && new TextDecoder('utf-8', { fatal: false }).decode(b).indexOf('\uFFFD') < 0,
};

/** The MIME type to serve the file as, or null when the name or content is not an allowed kind. */
export function attachmentType(name: string, content: Buffer): string | null {
  const ext = name.toLowerCase().split('.').pop() ?? '';
  const known = ATTACHMENT_EXTENSIONS.find((e) => e === ext);
  if (!known || !MAGIC[known](content)) return null;
  return MIME[known];
}
