import { z } from 'zod';
import { ticketIdentitySchema } from '../access/identity';

const examId = z.number({ message: '请选择考试' }).int().positive({ message: '请选择考试' });
const time = (label: string) => z.iso.datetime({ offset: true, message: `请选择${label}` }).transform((v) => new Date(v).toISOString());

/** 科目: a paper at set times. */
export const examSubjectInputSchema = z
  .object({
    examId,
    id: z.number().int().positive().optional(),
    name: z.string().trim().min(1, { message: '请填写科目名称' }).max(50, { message: '科目名称最多 50 个字' }),
    startAt: time('开考时间'),
    endAt: time('结束时间'),
  })
  .refine((v) => v.endAt > v.startAt, { path: ['endAt'], message: '结束时间应晚于开考时间' });
export type ExamSubjectInput = z.infer<typeof examSubjectInputSchema>;

export const MAX_ROOMS_PER_SITE = 99;
export const MAX_SEATS_PER_ROOM = 99;

/** 考点 with its rooms (numbered 01, 02, ...), each with seatsPerRoom seats unless edited. */
export const examSiteInputSchema = z.object({
  examId,
  id: z.number().int().positive().optional(),
  name: z.string().trim().min(1, { message: '请填写考点名称' }).max(100, { message: '考点名称最多 100 个字' }),
  address: z.string().trim().min(1, { message: '请填写考点地址' }).max(200, { message: '考点地址最多 200 个字' }),
  city: z.string().trim().max(50, { message: '城市最多 50 个字' }).optional(),
  rooms: z
    .number({ message: '请填写考场数' })
    .int({ message: '考场数应为整数' })
    .min(1, { message: '考点至少要有 1 个考场' })
    .max(MAX_ROOMS_PER_SITE, { message: `一个考点最多 ${MAX_ROOMS_PER_SITE} 个考场` }),
  seatsPerRoom: z
    .number({ message: '请填写每考场座位数' })
    .int({ message: '座位数应为整数' })
    .min(1, { message: '每考场至少 1 个座位' })
    .max(MAX_SEATS_PER_ROOM, { message: `每考场最多 ${MAX_SEATS_PER_ROOM} 个座位` }),
});
export type ExamSiteInput = z.infer<typeof examSiteInputSchema>;

export const arrangeSeatsSchema = z.object({
  examId,
  seed: z.string().trim().max(64, { message: '随机种子最多 64 个字符' }).optional(),
});
export type ArrangeSeatsInput = z.infer<typeof arrangeSeatsSchema>;

/**
 * Why some confirmed candidates are not seated: their position was cancelled at close-out and
 * they have not switched yet (or, the window over, are about to be refunded). Null: none.
 */
export function awaitingSwitchNote(count: number, switchEnd: string | null, now: string): string | null {
  if (count <= 0) return null;
  const open = switchEnd === null || now <= switchEnd;
  return open
    ? `另有 ${count} 名考生所报岗位已取消、改报期未结束，未编排`
    : `另有 ${count} 名考生所报岗位已取消且未改报，将取消报名并退费，未编排`;
}

export const arrangeResultSchema = z.object({
  arranged: z.number().int(),
  rooms: z.number().int(),
  sites: z.number().int(),
  /** Confirmed candidates left out: their position was cancelled and they have not switched. */
  awaitingSwitch: z.number().int(),
  /** The sentence saying so (null: none left out). */
  note: z.string().nullable(),
});
export type ArrangeSeatsResult = z.infer<typeof arrangeResultSchema>;

/** 补排 after publishing: how many were seated and numbered, how many found no seat. */
export const lateArrangeResultSchema = z.object({ arranged: z.number().int(), unplaced: z.number().int() });
export type LateArrangeResult = z.infer<typeof lateArrangeResultSchema>;

export const publishTicketsSchema = z
  .object({ examId, printStart: time('打印开始时间'), printEnd: time('打印结束时间') })
  .refine((v) => v.printEnd > v.printStart, { path: ['printEnd'], message: '打印结束时间应晚于开始时间' });

export const DEFAULT_TICKET_TEMPLATE = '{YY}{EXAM}{SITE}{ROOM}{SEAT}';
type TicketPart = 'YY' | 'EXAM' | 'SITE' | 'ROOM' | 'SEAT' | 'SEQ';

/** A ticket-number template: digits and the parts above, fixed length (every part has a fixed width). */
export const ticketTemplateSchema = z
  .string()
  .trim()
  .regex(/^(?:\d|\{(?:YY|EXAM|SITE|ROOM|SEAT|SEQ)\})+$/, { message: '准考证号模板只能由数字和 {YY}{EXAM}{SITE}{ROOM}{SEAT}{SEQ} 组成' })
  .refine((t) => t.includes('{SEQ}') || (t.includes('{SITE}') && t.includes('{ROOM}') && t.includes('{SEAT}')), {
    message: '准考证号模板须含 {SITE}{ROOM}{SEAT} 或 {SEQ}，才能人人不同',
  });

export interface TicketNumberParts {
  /** The exam's year (4 digits). */
  year: number;
  /** Two digits. */
  examCode: string;
  site: number;
  room: number;
  seat: number;
  /** 1-based running number within the exam. */
  seq: number;
}

const pad = (n: number | string, width: number) => String(n).padStart(width, '0').slice(-width);

/** Builds a ticket number: {YY} 2, {EXAM} 2, {SITE} 2, {ROOM} 2, {SEAT} 2, {SEQ} 6 digits. */
export function ticketNumber(template: string, p: TicketNumberParts): string {
  const values: Record<TicketPart, string> = {
    YY: pad(p.year % 100, 2),
    EXAM: pad(p.examCode, 2),
    SITE: pad(p.site, 2),
    ROOM: pad(p.room, 2),
    SEAT: pad(p.seat, 2),
    SEQ: pad(p.seq, 6),
  };
  return template.replace(/\{(YY|EXAM|SITE|ROOM|SEAT|SEQ)\}/g, (_, k: TicketPart) => values[k]);
}

export const verifyTicketSchema = z.object({
  code: z
    .string({ message: '请扫描或粘贴准考证二维码' })
    .trim()
    .min(1, { message: '请扫描或粘贴准考证二维码' })
    .max(200, { message: '二维码内容有误' }),
  /** The exam checked at this door; a code of another exam is refused. */
  examId: z.number().int().positive().optional(),
});

export const admissionTicketSchema = z.object({
  ticketNo: z.string(),
  name: z.string(),
  site: z.string(),
  address: z.string(),
  room: z.string(),
  seat: z.number().int(),
  /** Each paper with its room and seat: the same for every paper (one seat for the whole exam). */
  subjects: z.array(z.object({ name: z.string(), startAt: z.string(), endAt: z.string(), room: z.string(), seat: z.number().int() })),
  qr: z.string(),
  /** The candidate's identity checks (issue 33): the ticket says 已实名核验 or asks them to come early. */
  identity: ticketIdentitySchema,
});
export type AdmissionTicket = z.infer<typeof admissionTicketSchema>;

export const verifiedTicketSchema = z.object({
  ticketNo: z.string(),
  name: z.string(),
  photo: z.string().nullable(),
  site: z.string(),
  room: z.string(),
  seat: z.number().int(),
  /** The candidate's paper under way now, or their next one today; null: none of theirs today. */
  paper: z.object({ name: z.string(), startAt: z.string(), endAt: z.string() }).nullable(),
  /** When this ticket was first checked in for that paper (this check, the first time). */
  checkedInAt: z.string(),
  /** Scanned before for the same paper: the same ticket shown twice at the door. */
  repeat: z.boolean(),
  /** The candidate's identity checks, for the door staff to see beside the photo (issue 33). */
  identity: ticketIdentitySchema,
});
export type VerifiedTicket = z.infer<typeof verifiedTicketSchema>;

/**
 * The exam a door check opens on: the one with a paper today on the office's clock, else the
 * nearest upcoming one with tickets published; null: none.
 */
export const doorCheckExamSchema = z.object({ examId: z.number().int().nullable(), today: z.boolean() });
export type DoorCheckExam = z.infer<typeof doorCheckExamSchema>;

/** The exam code printed in ticket numbers: two digits. */
export const examCodeSchema = z
  .string()
  .trim()
  .regex(/^\d{2}$/, { message: '考试代码应为 2 位数字' });

const seatCount = z
  .number({ message: '请填写座位数' })
  .int({ message: '座位数应为整数' })
  .min(1, { message: '每考场至少 1 个座位' })
  .max(MAX_SEATS_PER_ROOM, { message: `每考场最多 ${MAX_SEATS_PER_ROOM} 个座位` });

/** One room's seats, edited after its site was saved. */
export const saveExamRoomSchema = z.object({ roomId: z.number().int().positive({ message: '请选择考场' }), seats: seatCount });
export type SaveExamRoomInput = z.infer<typeof saveExamRoomSchema>;

/** One candidate moved to another seat after publishing, for every paper they sit (one seat per candidate). */
export const moveSeatSchema = z.object({
  examId,
  applicationId: z.number({ message: '请选择考生' }).int().positive({ message: '请选择考生' }),
  roomId: z.number({ message: '请选择考场' }).int().positive({ message: '请选择考场' }),
  seatNo: seatCount,
});
export type MoveSeatInput = z.infer<typeof moveSeatSchema>;

/** The columns of the site workbook; 城市 may be left out. */
export const SITE_SHEET_COLUMNS = ['考点名称', '地址', '考场数', '每场座位数', '城市'] as const;
export const SITE_SHEET_REQUIRED = ['考点名称', '地址', '考场数', '每场座位数'] as const;

export const siteImportResultSchema = z.object({
  created: z.number().int(),
  /** Row numbers as the spreadsheet shows them (the header is row 1). */
  errors: z.array(z.object({ row: z.number().int(), msg: z.string() })),
});
export type SiteImportResult = z.infer<typeof siteImportResultSchema>;

const coercedId = (message: string) => z.coerce.number({ message }).int({ message }).positive({ message });
export const roomSheetsQuerySchema = z.object({
  examId: coercedId('请选择考试'),
  siteId: coercedId('请选择考点'),
  roomId: coercedId('考场有误').optional(),
});

/** The console's picture of an exam's arrangement: sites, rooms, how many seated where. */
export const arrangementOverviewSchema = z.object({
  confirmed: z.number().int(),
  seated: z.number().int(),
  /** Confirmed candidates not seated because their position was cancelled and they have not switched. */
  awaitingSwitch: z.number().int(),
  /** The sentence saying so, for the console and the publish confirmation (null: none). */
  awaitingSwitchNote: z.string().nullable(),
  /** Confirmed candidates without a seat for any other reason (confirmed or switched after the arrangement). */
  unseated: z.number().int(),
  seed: z.string().nullable(),
  examCode: z.string(),
  ticketTemplate: z.string(),
  ticketsPublishedAt: z.string().nullable(),
  printStart: z.string().nullable(),
  printEnd: z.string().nullable(),
  sites: z.array(
    z.object({
      id: z.number().int(),
      code: z.string(),
      name: z.string(),
      address: z.string(),
      city: z.string(),
      seats: z.number().int(),
      seated: z.number().int(),
      rooms: z.array(z.object({ id: z.number().int(), code: z.string(), seats: z.number().int(), seated: z.number().int() })),
    }),
  ),
});
export type ArrangementOverview = z.infer<typeof arrangementOverviewSchema>;

/** 考点城市: the cities of an exam's sites a candidate may choose from. */
export const examSiteCitiesSchema = z.object({ cities: z.array(z.string()) });

/** A candidate's city choice on one application. */
export const siteCityChoiceSchema = z.object({
  /** Whether the exam lets candidates choose. */
  enabled: z.boolean(),
  cities: z.array(z.string()),
  /** The chosen city; null: none (the office seats them). */
  city: z.string().nullable(),
  /** Seats are arranged: the choice is fixed. */
  arranged: z.boolean(),
});
export type SiteCityChoice = z.infer<typeof siteCityChoiceSchema>;

export const chooseSiteCitySchema = z.object({
  examId,
  city: z.string({ message: '请选择考点城市' }).trim().min(1, { message: '请选择考点城市' }).max(50, { message: '请选择考点城市' }),
});
export type ChooseSiteCityInput = z.infer<typeof chooseSiteCitySchema>;

/** Finding a seated candidate in the console to move their seat: by ticket number or name. */
export const findSeatedQuerySchema = z.object({
  examId: z.coerce.number({ message: '请选择考试' }).int().positive({ message: '请选择考试' }),
  q: z
    .string({ message: '请输入准考证号或姓名' })
    .trim()
    .min(1, { message: '请输入准考证号或姓名' })
    .max(50, { message: '准考证号或姓名最多 50 个字' }),
});

export const seatedCandidateSchema = z.object({
  applicationId: z.number().int(),
  name: z.string(),
  /** Null until tickets are published. */
  ticketNo: z.string().nullable(),
  seats: z.array(
    z.object({
      subjectId: z.number().int(),
      subject: z.string(),
      startAt: z.string(),
      site: z.string(),
      roomId: z.number().int(),
      room: z.string(),
      seat: z.number().int(),
    }),
  ),
});
export type SeatedCandidate = z.infer<typeof seatedCandidateSchema>;
