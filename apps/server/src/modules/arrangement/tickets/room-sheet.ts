import { zonedSpan } from '@zhikaoyun/shared';
import type { PDFDocument, PDFFont, PDFImage, PDFPage } from 'pdf-lib';
import { A4, createCjkDocument, embedPhoto, LINE, MARGIN, MUTED, SHADE, textTools } from './pdf-fonts';

export interface RoomSheetSeat {
  seat: number;
  ticketNo: string;
  name: string;
  photo: { mime: string; data: Buffer } | undefined;
  /** The candidate's identity checks in one line (实名核验：通过…), for the proctor at the sign-in (issue 33). */
  identity: string;
}

/** One room in one sitting: the papers sat there and its candidates in seat order. */
export interface RoomSheetSitting {
  room: string;
  subject: string;
  startAt: string;
  endAt: string;
  seats: RoomSheetSeat[];
}

export interface RoomSheetsInput {
  officeName: string;
  examName: string;
  site: string;
  address: string;
  timeZone: string;
  sittings: RoomSheetSitting[];
}

const [PAGE_W, PAGE_H] = A4;
const LEFT = MARGIN;
const RIGHT = PAGE_W - MARGIN;
const WIDTH = RIGHT - LEFT;
const ROW_H = 58;
const HEAD_ROW_H = 26;

function when(s: { startAt: string; endAt: string }, timeZone: string): string {
  return zonedSpan(s.startAt, s.endAt, timeZone);
}

/**
 * Every room of a site (or one room) as one PDF: per room and sitting a sign-in sheet (photo,
 * name, ticket number in seat order, a column to sign) and the list for the room's door.
 */
export async function renderRoomSheets(input: RoomSheetsInput): Promise<Uint8Array> {
  const { doc, regular, bold } = await createCjkDocument(`${input.examName} ${input.site} 考场签到表`, input.officeName);
  const photos = new Map<RoomSheetSeat, PDFImage | undefined>();
  for (const s of input.sittings) for (const seat of s.seats) if (seat.photo) photos.set(seat, await embedPhoto(doc, seat.photo));

  const { text, centered, fit } = textTools(regular);
  const cell = (p: PDFPage, x: number, top: number, w: number, h: number, fill?: typeof SHADE) =>
    p.drawRectangle({ x, y: top - h, width: w, height: h, borderColor: LINE, borderWidth: 0.75, ...(fill ? { color: fill } : {}) });

  /** The heading of a page of a room; answers where the content starts. */
  const heading = (p: PDFPage, title: string, s: RoomSheetSitting): number => {
    let y = PAGE_H - MARGIN;
    centered(p, fit(input.examName, bold, 14, WIDTH), y - 10, 14, bold);
    y -= 40;
    centered(p, title, y, 20, bold);
    y -= 26;
    const line = `考点：${input.site}\u3000第 ${s.room} 考场\u3000科目：${s.subject}\u3000时间：${when(s, input.timeZone)}`;
    centered(p, fit(line, regular, 10.5, WIDTH), y, 10.5, regular, MUTED);
    y -= 16;
    centered(p, fit(`地址：${input.address}`, regular, 9.5, WIDTH), y, 9.5, regular, MUTED);
    return y - 18;
  };

  for (const s of input.sittings) {
    signIn(doc, s);
    doorList(doc, s);
  }

  function signIn(d: PDFDocument, s: RoomSheetSitting) {
    const cols: [string, number][] = [
      ['座位号', 0.1],
      ['照片', 0.13],
      ['姓名', 0.2],
      ['准考证号', 0.25],
      ['考生签名', 0.32],
    ];
    const xs: number[] = [];
    let acc = LEFT;
    for (const [, share] of cols) {
      xs.push(acc);
      acc += WIDTH * share;
    }
    let page = d.addPage(A4);
    let y = heading(page, '考场签到表', s);
    const header = () => {
      cols.forEach(([label, share], i) => {
        cell(page, xs[i]!, y, WIDTH * share, HEAD_ROW_H, SHADE);
        text(page, label, xs[i]! + 8, y - 17, 10.5, bold);
      });
      y -= HEAD_ROW_H;
    };
    header();
    for (const seat of s.seats) {
      if (y - ROW_H < MARGIN + 60) {
        page = d.addPage(A4);
        y = heading(page, '考场签到表（续）', s);
        header();
      }
      cols.forEach(([, share], i) => cell(page, xs[i]!, y, WIDTH * share, ROW_H));
      const mid = y - ROW_H / 2 - 4;
      text(page, String(seat.seat).padStart(2, '0'), xs[0]! + 12, mid, 12, bold);
      const photo = photos.get(seat);
      const pw = 36;
      const ph = 50;
      const px = xs[1]! + (WIDTH * 0.13 - pw) / 2;
      const py = y - (ROW_H - ph) / 2 - ph;
      if (photo) page.drawImage(photo, { x: px, y: py, width: pw, height: ph });
      else {
        page.drawRectangle({ x: px, y: py, width: pw, height: ph, borderColor: LINE, borderWidth: 0.5 });
        text(page, '无照片', px + 3, py + ph / 2 - 3, 7.5, regular, MUTED);
      }
      text(page, fit(seat.name, bold, 12, WIDTH * 0.2 - 14), xs[2]! + 8, mid + 7, 12, bold);
      // Under the name, small: the checks, so the proctor knows whom to check at the desk.
      for (const [i, part] of seat.identity.split('；').entries())
        text(page, fit(part, regular, 8, WIDTH * 0.2 - 14), xs[2]! + 8, mid - 8 - i * 10, 8, regular, MUTED);
      text(page, seat.ticketNo, xs[3]! + 8, mid, 11.5);
      y -= ROW_H;
    }
    y -= 28;
    if (y < MARGIN + 20) {
      page = d.addPage(A4);
      y = PAGE_H - MARGIN - 20;
    }
    text(
      page,
      `应到 ${s.seats.length} 人\u3000\u3000实到 ____ 人\u3000\u3000缺考 ____ 人\u3000\u3000监考员签名：______________`,
      LEFT,
      y,
      11,
    );
  }

  function doorList(d: PDFDocument, s: RoomSheetSitting) {
    const perColumn = 32;
    const perPage = perColumn * 2;
    const colW = (WIDTH - 20) / 2;
    const widths = [0.22, 0.42, 0.36];
    for (let start = 0; start < Math.max(1, s.seats.length); start += perPage) {
      const page = d.addPage(A4);
      let y = PAGE_H - MARGIN;
      centered(page, fit(input.examName, bold, 14, WIDTH), y - 10, 14, bold);
      y -= 64;
      centered(page, `第 ${s.room} 考场`, y, 40, bold);
      y -= 30;
      centered(page, fit(`${input.site}\u3000${s.subject}\u3000${when(s, input.timeZone)}`, regular, 12, WIDTH), y, 12, regular, MUTED);
      y -= 18;
      centered(page, `本场考生 ${s.seats.length} 人（按座位号）`, y, 10.5, regular, MUTED);
      y -= 22;
      const chunk = s.seats.slice(start, start + perPage);
      // A usual room (up to 30) fits one wide column in larger type, read from a step away.
      const columns = chunk.length > perColumn ? 2 : 1;
      const w0 = columns === 2 ? colW : WIDTH;
      const rowH = columns === 2 ? 19 : 20;
      const size = columns === 2 ? 10 : 12;
      for (let c = 0; c < columns; c++) {
        const part = chunk.slice(c * perColumn, (c + 1) * perColumn);
        if (part.length === 0) continue;
        const x0 = LEFT + c * (colW + 20);
        let top = y;
        const row = (cells: string[], font: PDFFont, fill?: typeof SHADE) => {
          let x = x0;
          cells.forEach((v, i) => {
            const w = w0 * widths[i]!;
            cell(page, x, top, w, rowH, fill);
            text(page, fit(v, font, size, w - 10), x + 6, top - rowH / 2 - size / 2.8, size, font);
            x += w;
          });
          top -= rowH;
        };
        row(['座位号', '准考证号', '姓名'], bold, SHADE);
        for (const seat of part) row([String(seat.seat).padStart(2, '0'), seat.ticketNo, seat.name], regular);
      }
    }
  }

  const pages = doc.getPages();
  pages.forEach((p, i) => {
    p.drawLine({ start: { x: LEFT, y: MARGIN - 8 }, end: { x: RIGHT, y: MARGIN - 8 }, thickness: 0.5, color: LINE });
    text(p, `${input.examName}\u3000${input.site}\u3000第 ${i + 1}/${pages.length} 页`, LEFT, MARGIN - 22, 8.5, regular, MUTED);
  });
  return doc.save();
}
