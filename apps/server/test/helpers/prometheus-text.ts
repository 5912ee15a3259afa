import { expect } from 'vitest';

/** Prometheus' text format, read as strictly as Prometheus reads it (metrics and alerts tests). */
const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const LABEL = '[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\\\\n]|\\\\.)*"';
// prom-client writes a gauge with no sample yet (the event-loop lag of a process just started) as
// `Nan`; Prometheus reads NaN in any case (Go's ParseFloat), so both spellings are the format.
const SAMPLE = new RegExp(
  `^(${NAME})(?:\\{(${LABEL}(?:,${LABEL})*)?,?\\})? (-?[0-9]+(?:\\.[0-9]+)?(?:e[+-]?[0-9]+)?|NaN|Nan|\\+Inf|-Inf)(?: -?[0-9]+)?$`,
);
const COMMENT = new RegExp(`^# (HELP|TYPE) (${NAME})(?: (.*))?$`);

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parses the whole text; throws naming the first line that is not the format. */
export function parse(text: string): Sample[] {
  const samples: Sample[] = [];
  const lines = text.split('\n');
  expect(lines.at(-1)).toBe('');
  for (const line of lines.slice(0, -1)) {
    if (line === '') continue; // the format allows empty lines (between families)
    const c = COMMENT.exec(line);
    if (c) {
      if (c[1] === 'TYPE') expect(['counter', 'gauge', 'histogram', 'summary', 'untyped']).toContain(c[3]);
      continue;
    }
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`not Prometheus text format: ${JSON.stringify(line)}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!;
    samples.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return samples;
}
