// zip-stream ships no types; what lib/xlsx-stream.ts uses of it.
declare module 'zip-stream' {
  import type { Readable } from 'node:stream';
  export default class ZipStream extends Readable {
    constructor(options?: { zlib?: { level?: number } });
    entry(source: string | Buffer | NodeJS.ReadableStream, data: { name: string }, callback: (err?: Error | null) => void): this;
    finish(): void;
  }
}
