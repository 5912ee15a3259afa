import { zonedDay, zonedSpanTime } from '@zhikaoyun/shared';
import { type PDFFont, type PDFImage, type PDFPage } from 'pdf-lib';
import QRCode from 'qrcode';
import { A4, createCjkDocument, embedPhoto, INK, LINE, MARGIN, MUTED, SHADE, wrap } from './pdf-fonts';

/** What one admission ticket prints. */
export interface TicketPdfInput {
  officeName: string;
  examName: string;
  ticketNo: string;
  name: string;
  sex: string;
  idno: string;
  site: string;
  address: string;
  room: string;
  seat: number;
  subjects: { name: string; startAt: string; endAt: string; room: string; seat: number }[];
  /** 考生须知, one rule a line; empty: the default rules. */
  rules: string;
  /** The signed code the QR code holds. */
  qr: string;
  photo: { mime: string; data: Buffer } | undefined;
  timeZone: string;
  /** 已实名核验, or the early arrival for a check at the door (issue 33). */
  identityText: string;
}

export const DEFAULT_EXAM_RULES = [
  '考生须凭本准考证和有效居民身份证原件参加考试，两证齐全方可进入考场。',
  '考生应于开考前 30 分钟到达考场，开考 30 分钟后不得入场，考试开始后 60 分钟内不得交卷离场。',
  '除黑色签字笔、2B 铅笔、橡皮外，不得携带任何书籍、资料及手机、智能手表等电子设备进入考场。',
  '考生应按准考证上的考场和座位号就座，并将准考证、身份证放在桌面右上角以便核验。',
  '考生须在答题卡指定位置准确填写姓名、准考证号，在规定区域内答题。',
  '考试期间应保持安静，服从监考人员管理；违纪违规者按有关规定处理。',
  '请妥善保管本准考证，考试结束前不得丢失、涂改或转借他人。',
].join('\n');

/** Renders one admission ticket as an A4 PDF: Chinese as real text in an embedded font subset. */
export async function renderTicketPdf(input: TicketPdfInput): Promise<Uint8Array> {
  const { doc, regular, bold } = await createCjkDocument(`${input.examName} 准考证 ${input.ticketNo}`, input.officeName);
  let photo: PDFImage | undefined;
  if (input.photo) photo = await embedPhoto(doc, input.photo);

  let page = doc.addPage(A4);
  const [pageWidth, pageHeight] = A4;
  const left = MARGIN;
  const right = pageWidth - MARGIN;
  const width = right - left;
  let y = pageHeight - MARGIN;

  const text = (p: PDFPage, s: string, x: number, baseline: number, size: number, font: PDFFont = regular, color = INK) =>
    p.drawText(s, { x, y: baseline, size, font, color });
  const centered = (s: string, baseline: number, size: number, font: PDFFont, color = INK) =>
    text(page, s, left + (width - font.widthOfTextAtSize(s, size)) / 2, baseline, size, font, color);
  const box = (x: number, top: number, w: number, h: number, fill?: typeof SHADE) =>
    page.drawRectangle({ x, y: top - h, width: w, height: h, borderColor: LINE, borderWidth: 0.75, ...(fill ? { color: fill } : {}) });

  // Heading.
  centered(input.officeName, y - 10, 10, regular, MUTED);
  y -= 34;
  for (const line of wrap(input.examName, bold, 16, width)) {
    centered(line, y, 16, bold);
    y -= 22;
  }
  y -= 12;
  centered('准  考  证', y, 26, bold);
  y -= 28;

  // The candidate and the place, with the photo and the QR code at the right.
  const labelWidth = 78;
  const sideWidth = 132;
  const valueWidth = width - labelWidth - sideWidth;
  const valueSize = 11.5;
  const rows: [string, string, PDFFont?, number?][] = [
    ['姓\u3000\u3000名', input.name, bold, 13],
    ['性\u3000\u3000别', input.sex],
    ['身份证号', input.idno],
    ['准考证号', input.ticketNo, bold, 14],
    ['考\u3000\u3000点', input.site],
    ['考点地址', input.address],
    ['考场座位', `第 ${input.room} 考场\u3000第 ${String(input.seat).padStart(2, '0')} 号座位`, bold, 12],
    ['身份核验', input.identityText, bold, input.identityText.length > 10 ? 10.5 : valueSize],
  ];
  const tableTop = y;
  for (const [label, value, font = regular, size = valueSize] of rows) {
    const lines = wrap(value, font, size, valueWidth - 16);
    const h = Math.max(36, lines.length * (size + 5) + 16);
    box(left, y, labelWidth, h, SHADE);
    box(left + labelWidth, y, valueWidth, h);
    text(page, label, left + 12, y - h / 2 - 4, 11, regular, MUTED);
    lines.forEach((line, i) =>
      text(page, line, left + labelWidth + 8, y - h / 2 + ((lines.length - 1) / 2 - i) * (size + 5) - size / 2.8, size, font),
    );
    y -= h;
  }
  const sideX = right - sideWidth;
  box(sideX, tableTop, sideWidth, tableTop - y);
  // The ID photo's own proportions (295 × 413).
  const photoW = 80;
  const photoH = 112;
  const photoX = sideX + (sideWidth - photoW) / 2;
  const photoTop = tableTop - 12;
  if (photo) page.drawImage(photo, { x: photoX, y: photoTop - photoH, width: photoW, height: photoH });
  else {
    page.drawRectangle({ x: photoX, y: photoTop - photoH, width: photoW, height: photoH, borderColor: LINE, borderWidth: 0.75 });
    text(page, '照片', photoX + photoW / 2 - 11, photoTop - photoH / 2 - 4, 11, regular, MUTED);
  }
  const qr = QRCode.create(input.qr, { errorCorrectionLevel: 'M' });
  const qrSize = 88;
  const cells = qr.modules.size;
  const cell = qrSize / cells;
  const qrX = sideX + (sideWidth - qrSize) / 2;
  const qrTop = y + qrSize + 22;
  // One rectangle per run of dark modules: a vector code, sharp at any printer resolution.
  for (let r = 0; r < cells; r++) {
    let c = 0;
    while (c < cells) {
      if (!qr.modules.get(r, c)) {
        c++;
        continue;
      }
      const start = c;
      while (c < cells && qr.modules.get(r, c)) c++;
      page.drawRectangle({ x: qrX + start * cell, y: qrTop - (r + 1) * cell, width: (c - start) * cell, height: cell, color: INK });
    }
  }
  const caption = '入场核验码';
  text(page, caption, sideX + (sideWidth - regular.widthOfTextAtSize(caption, 9)) / 2, y + 10, 9, regular, MUTED);
  y -= 26;

  // The subjects and times (office time), each with its room and seat.
  text(page, '考试科目', left, y, 13, bold);
  y -= 12;
  const cols: [string, number][] = [
    ['科目', 0.34],
    ['日期', 0.18],
    ['时间', 0.22],
    ['考场', 0.12],
    ['座位号', 0.14],
  ];
  const row = (cellsText: string[], top: number, font: PDFFont, fill?: typeof SHADE) => {
    let x = left;
    cols.forEach(([, share], i) => {
      const w = width * share;
      box(x, top, w, 26, fill);
      const s = cellsText[i] ?? '';
      const size = 10.5;
      let shown = s;
      while (shown.length > 1 && font.widthOfTextAtSize(shown, size) > w - 12) shown = shown.slice(0, -1);
      if (shown !== s) shown = `${shown.slice(0, -1)}…`;
      text(page, shown, x + 8, top - 17, size, font);
      x += w;
    });
  };
  row(
    cols.map(([name]) => name),
    y,
    bold,
    SHADE,
  );
  y -= 26;
  for (const s of input.subjects) {
    row(
      [
        s.name,
        zonedDay(s.startAt, input.timeZone),
        zonedSpanTime(s.startAt, s.endAt, input.timeZone),
        s.room,
        String(s.seat).padStart(2, '0'),
      ],
      y,
      regular,
    );
    y -= 26;
  }
  y -= 26;

  // 考生须知, on a further page when it does not fit.
  text(page, '考生须知', left, y, 13, bold);
  y -= 20;
  const rules = (input.rules.trim() || DEFAULT_EXAM_RULES).split('\n').filter((l) => l.trim() !== '');
  const numbered = rules.every((l) => /^\s*[\d一二三四五六七八九十]+[.、．)）]/.test(l));
  const ruleSize = 10.5;
  const leading = 17;
  rules.forEach((rule, i) => {
    const prefix = numbered ? '' : `${i + 1}. `;
    const indent = numbered ? 0 : regular.widthOfTextAtSize(`${rules.length}. `, ruleSize);
    wrap(rule.trim(), regular, ruleSize, width - indent).forEach((line, j) => {
      if (y < MARGIN + 30) {
        page = doc.addPage(A4);
        y = pageHeight - MARGIN;
      }
      if (j === 0 && prefix) text(page, prefix, left, y, ruleSize);
      text(page, line, left + indent, y, ruleSize);
      y -= leading;
    });
    y -= 3;
  });

  const pages = doc.getPages();
  pages.forEach((p, i) => {
    const foot = `${input.examName}\u3000准考证号 ${input.ticketNo}${pages.length > 1 ? `\u3000第 ${i + 1}/${pages.length} 页` : ''}`;
    p.drawLine({ start: { x: left, y: MARGIN - 8 }, end: { x: right, y: MARGIN - 8 }, thickness: 0.5, color: LINE });
    text(p, foot, left, MARGIN - 22, 8.5, regular, MUTED);
  });
  return doc.save();
}
