import { formatPoints, zonedDateTime } from '@zhikaoyun/shared';
import type { PDFFont, PDFPage } from 'pdf-lib';
import { A4, createCjkDocument, LINE, MARGIN, MUTED, SHADE, textTools } from '../../arrangement/tickets/pdf-fonts';

export interface InterviewListPdfInput {
  officeName: string;
  examName: string;
  /** When the list was made (shown at the foot of each page), and the office's zone to show it in. */
  at: string;
  timeZone: string;
  positions: {
    code: string;
    name: string;
    headcount: number;
    cutOff: number | null;
    list: { rank: number; ticketNo: string; name: string; total: number }[];
  }[];
}

const [PAGE_W, PAGE_H] = A4;
const LEFT = MARGIN;
const WIDTH = PAGE_W - 2 * MARGIN;
const ROW_H = 22;
const COLS: [string, number][] = [
  ['序号', 0.12],
  ['准考证号', 0.3],
  ['姓名', 0.22],
  ['笔试成绩', 0.18],
  ['岗位排名', 0.18],
];

/**
 * The interview list as a PDF to post (公示): per position its code, name, posts and cut-off, then
 * the entrants best first with masked names, as the public page shows them.
 */
export async function renderInterviewListPdf(input: InterviewListPdfInput): Promise<Uint8Array> {
  const { doc, regular, bold } = await createCjkDocument(`${input.examName} 面试人员名单`, input.officeName);
  const { text, centered, fit } = textTools(regular);
  const xs: number[] = [];
  let acc = LEFT;
  for (const [, share] of COLS) {
    xs.push(acc);
    acc += WIDTH * share;
  }
  const row = (p: PDFPage, y: number, cells: string[], font: PDFFont, fill?: typeof SHADE) =>
    COLS.forEach(([, share], i) => {
      const w = WIDTH * share;
      p.drawRectangle({
        x: xs[i]!,
        y: y - ROW_H,
        width: w,
        height: ROW_H,
        borderColor: LINE,
        borderWidth: 0.75,
        ...(fill ? { color: fill } : {}),
      });
      text(p, fit(cells[i] ?? '', font, 10.5, w - 12), xs[i]! + 6, y - 15, 10.5, font);
    });

  const header = (p: PDFPage, y: number) =>
    row(
      p,
      y,
      COLS.map(([label]) => label),
      bold,
      SHADE,
    );

  let page = doc.addPage(A4);
  let pages = 1;
  const foot = (p: PDFPage, n: number) =>
    text(
      p,
      `${input.officeName}\u3000生成于 ${zonedDateTime(input.at, input.timeZone)}\u3000第 ${n} 页`,
      LEFT,
      MARGIN / 2,
      8.5,
      regular,
      MUTED,
    );
  const newPage = () => {
    foot(page, pages);
    page = doc.addPage(A4);
    pages += 1;
    return PAGE_H - MARGIN;
  };
  let y = PAGE_H - MARGIN;
  centered(page, fit(input.examName, bold, 15, WIDTH), y - 12, 15, bold);
  y -= 42;
  centered(page, '面试人员名单公示', y, 20, bold);
  y -= 30;
  if (input.positions.length === 0) {
    centered(page, '暂无进入面试的考生', y, 12, regular, MUTED);
  }
  for (const p of input.positions) {
    if (y - 3 * ROW_H < MARGIN) y = newPage();
    const line = `${p.code} ${p.name}\u3000招聘 ${p.headcount} 人\u3000入围 ${p.list.length} 人${
      p.cutOff === null ? '' : `\u3000最低入围分数 ${formatPoints(p.cutOff)}`
    }`;
    text(page, fit(line, bold, 12, WIDTH), LEFT, y - 14, 12, bold);
    y -= 24;
    header(page, y);
    y -= ROW_H;
    p.list.forEach((c, i) => {
      if (y - ROW_H < MARGIN) {
        y = newPage();
        header(page, y);
        y -= ROW_H;
      }
      row(page, y, [String(i + 1), c.ticketNo, c.name, formatPoints(c.total), String(c.rank)], regular);
      y -= ROW_H;
    });
    y -= 16;
  }
  foot(page, pages);
  return doc.save();
}
