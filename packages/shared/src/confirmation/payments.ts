import { z } from 'zod';

/**
 * Registration confirmation: exam fees, fee waivers, payments, reconciliation and close-out.
 * Money is an integer number of fen everywhere (browser, server, database); yuan exist only as
 * text at the edges (a provider's API, a statement, a screen).
 */

export const PAYMENT_PROVIDERS = ['sandbox', 'alipay', 'wechat'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];
export const PAYMENT_PROVIDER_LABEL: Readonly<Record<PaymentProviderName, string>> = {
  sandbox: '模拟支付',
  alipay: '支付宝',
  wechat: '微信支付',
};

/** An order as we keep it. `closed`: replaced or expired, closed at the provider first. */
export const ORDER_STATUSES = ['unpaid', 'paid', 'closed', 'refunding', 'refunded'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export const ORDER_STATUS_LABEL: Readonly<Record<OrderStatus, string>> = {
  unpaid: '待支付',
  paid: '已支付',
  closed: '已关闭',
  refunding: '退款中',
  refunded: '已退款',
};

/** Where the candidate stands with the fee. */
export const FEE_STATES = ['none', 'unpaid', 'paid', 'waived', 'refunded'] as const;
export type FeeState = (typeof FEE_STATES)[number];

/** Who may have the fee waived; an exam switches each on or off. */
export const WAIVER_CATEGORIES = ['dibao', 'tekun', 'lingjiuye', 'tuopin'] as const;
export type WaiverCategory = (typeof WAIVER_CATEGORIES)[number];
export const WAIVER_CATEGORY_LABEL: Readonly<Record<WaiverCategory, string>> = {
  dibao: '城乡最低生活保障家庭',
  tekun: '特困供养人员',
  lingjiuye: '城镇零就业家庭',
  tuopin: '脱贫家庭（含防返贫监测对象）',
};

/** What proof each waiver category asks the candidate to upload (one file: a scan or photo). */
export const WAIVER_PROOF_HINT: Readonly<Record<WaiverCategory, string>> = {
  dibao: '请上传《城乡居民最低生活保障证》，或县级民政部门出具的低保证明（须含本人或家庭成员姓名）',
  tekun: '请上传《特困人员救助供养证》，或县级民政部门出具的特困供养证明',
  lingjiuye: '请上传户籍所在地街道（乡镇）就业服务机构出具的城镇零就业家庭证明',
  tuopin: '请上传乡村振兴（扶贫）部门出具的脱贫家庭或防返贫监测对象证明',
};

export const WAIVER_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type WaiverStatus = (typeof WAIVER_STATUSES)[number];
export const WAIVER_STATUS_LABEL: Readonly<Record<WaiverStatus, string>> = {
  pending: '待审核',
  approved: '已通过',
  rejected: '未通过',
};

/** The largest fee an exam may ask: 1,000 yuan (a typo of two zeros is refused, not charged). */
export const MAX_FEE_FEN = 100_000;
/** A waiver's proof: JPEG, PNG or PDF, at most 5 MB. */
export const WAIVER_PROOF_MAX_BYTES = 5 * 1024 * 1024;

/** Order numbers we make: letters and digits, 6 to 32 characters (what both providers accept). */
export const ORDER_NO = /^[A-Za-z0-9]{6,32}$/;

const examId = z.coerce
  .number({ message: '考试编号有误，请从考试列表进入' })
  .int({ message: '考试编号有误，请从考试列表进入' })
  .positive({ message: '考试编号有误，请从考试列表进入' });
const page = z.coerce.number().int().min(1).default(1);
const pageSize = z.coerce.number().int().min(1).max(100, { message: '每页最多 100 条' }).default(20);

export const createdPaymentSchema = z.object({
  orderNo: z.string(),
  amount: z.number().int(),
  provider: z.enum(PAYMENT_PROVIDERS),
  payUrl: z.string(),
});
export type CreatedPayment = z.infer<typeof createdPaymentSchema>;

export const waiverSummarySchema = z.object({
  id: z.number().int(),
  category: z.enum(WAIVER_CATEGORIES),
  status: z.enum(WAIVER_STATUSES),
  reason: z.string(),
  createdAt: z.string(),
});

export const paymentStatusSchema = z.object({
  status: z.enum(FEE_STATES),
  /** The fee in fen: the open or paid order's amount, else the exam's fee now. */
  amount: z.number().int(),
  orderNo: z.string().nullable(),
  paidAt: z.string().nullable(),
  /** The end of the confirmation window (ISO UTC). */
  deadline: z.string(),
  provider: z.enum(PAYMENT_PROVIDERS).nullable(),
  /** The latest fee-waiver request, if any. */
  waiver: waiverSummarySchema.nullable(),
  /** The categories this exam waives (empty: none). */
  waiverCategories: z.array(z.enum(WAIVER_CATEGORIES)),
  refundedAt: z.string().nullable(),
  /** The application's position was cancelled at close-out (the candidate may switch or take a refund). */
  positionCancelled: z.boolean(),
  /** The candidate's name, for the receipt. */
  payer: z.string(),
});
export type PaymentStatus = z.infer<typeof paymentStatusSchema>;

export const sandboxPaySchema = z.object({
  orderNo: z.string().regex(ORDER_NO, { message: '订单号有误' }),
});

/** The multipart fields of applyFeeWaiver (the file travels as `proof`). */
export const waiverApplyFieldsSchema = z.object({
  examId,
  category: z.enum(WAIVER_CATEGORIES, { message: '请选择减免类别' }),
});

export const waiverListQuerySchema = z.object({
  examId,
  status: z.enum(WAIVER_STATUSES, { message: '状态有误' }).optional(),
  page,
  pageSize,
});

export const waiverItemSchema = z.object({
  id: z.number().int(),
  applicationId: z.number().int(),
  name: z.string(),
  positionName: z.string(),
  unit: z.string(),
  category: z.enum(WAIVER_CATEGORIES),
  status: z.enum(WAIVER_STATUSES),
  reason: z.string(),
  proofMime: z.string(),
  createdAt: z.string(),
  reviewedAt: z.string().nullable(),
});
export type WaiverItem = z.infer<typeof waiverItemSchema>;

export const reviewFeeWaiverSchema = z
  .object({
    waiverId: z.number({ message: '减免申请编号有误' }).int().positive({ message: '减免申请编号有误' }),
    decision: z.enum(['approve', 'reject'], { message: '审核结论有误' }),
    reason: z.string().trim().max(200, { message: '审核意见不能超过 200 个字' }).default(''),
  })
  .refine((v) => v.decision === 'approve' || v.reason.length > 0, { message: '不通过时必须填写原因', path: ['reason'] });

export const paymentListQuerySchema = z.object({
  examId,
  status: z.enum(ORDER_STATUSES, { message: '状态有误' }).optional(),
  page,
  pageSize,
});

export const paymentItemSchema = z.object({
  orderNo: z.string(),
  applicationId: z.number().int(),
  name: z.string(),
  positionName: z.string(),
  unit: z.string(),
  provider: z.enum(PAYMENT_PROVIDERS),
  amount: z.number().int(),
  status: z.enum(ORDER_STATUSES),
  tradeNo: z.string().nullable(),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
  refundedAt: z.string().nullable(),
  note: z.string(),
});
export type PaymentItem = z.infer<typeof paymentItemSchema>;

export const paymentListSchema = z.object({
  list: z.array(paymentItemSchema),
  total: z.number().int(),
  /** Fen of the orders the filter matches. */
  sum: z.number().int(),
});
export type PaymentList = z.infer<typeof paymentListSchema>;

export const refundPaymentSchema = z.object({
  orderNo: z.string().regex(ORDER_NO, { message: '订单号有误' }),
  reason: z.string().trim().min(1, { message: '请填写退费原因' }).max(200, { message: '退费原因不能超过 200 个字' }),
});

/** What staff see after uploading a provider's statement. */
export const statementLineSchema = z.object({
  orderNo: z.string(),
  tradeNo: z.string(),
  amount: z.number().int(),
  paidAt: z.string(),
});
export type StatementLine = z.infer<typeof statementLineSchema>;

export const reconciliationSchema = z.object({
  provider: z.enum(PAYMENT_PROVIDERS),
  lines: z.number().int(),
  matched: z.number().int(),
  /** Paid at the provider, not (yet) here: one click applies it. */
  missingHere: z.array(statementLineSchema),
  /** Paid here, absent from the statement: flagged for staff. */
  missingThere: z.array(z.object({ orderNo: z.string(), amount: z.number().int(), paidAt: z.string().nullable() })),
  /** In both, with different amounts. */
  amountMismatch: z.array(z.object({ orderNo: z.string(), ours: z.number().int(), theirs: z.number().int() })),
  days: z.array(
    z.object({
      date: z.string(),
      statementCount: z.number().int(),
      statementSum: z.number().int(),
      ourCount: z.number().int(),
      ourSum: z.number().int(),
    }),
  ),
});
export type Reconciliation = z.infer<typeof reconciliationSchema>;

export const applyStatementLineSchema = z.object({
  provider: z.enum(PAYMENT_PROVIDERS),
  orderNo: z.string().regex(ORDER_NO, { message: '订单号有误' }),
});

export const OPENING_ACTIONS = ['keep', 'reduce', 'cancel'] as const;
export type OpeningAction = (typeof OPENING_ACTIONS)[number];
export const OPENING_ACTION_LABEL: Readonly<Record<OpeningAction, string>> = { keep: '正常开考', reduce: '核减计划', cancel: '取消岗位' };

/**
 * What the opening ratio proposes for a position: applicants per post must reach `ratio` (0: no
 * check). Short of it, the posts the confirmed applicants can carry are kept; none: cancelled.
 */
export function openingProposal(
  headcount: number,
  confirmed: number,
  ratio: number,
): { proposal: OpeningAction; proposedHeadcount: number } {
  if (ratio <= 0 || headcount <= 0 || confirmed >= headcount * ratio) return { proposal: 'keep', proposedHeadcount: headcount };
  const carried = Math.floor(confirmed / ratio);
  return carried >= 1 ? { proposal: 'reduce', proposedHeadcount: carried } : { proposal: 'cancel', proposedHeadcount: 0 };
}

export const openingCheckItemSchema = z.object({
  positionId: z.number().int(),
  code: z.string(),
  name: z.string(),
  unit: z.string(),
  headcount: z.number().int(),
  confirmed: z.number().int(),
  proposal: z.enum(OPENING_ACTIONS),
  proposedHeadcount: z.number().int(),
  /** The position was already cancelled by an earlier decision. */
  cancelled: z.boolean(),
});
export type OpeningCheckItem = z.infer<typeof openingCheckItemSchema>;

export const openingCheckSchema = z.object({
  openingRatio: z.number().int(),
  switchStart: z.string().nullable(),
  switchEnd: z.string().nullable(),
  positions: z.array(openingCheckItemSchema),
});

export const applyOpeningCheckSchema = z
  .object({
    examId: z.number({ message: '请选择考试' }).int().positive({ message: '请选择考试' }),
    decisions: z
      .array(
        z.object({
          positionId: z.number().int().positive(),
          action: z.enum(OPENING_ACTIONS, { message: '处理方式有误' }),
          headcount: z.number().int().min(0).max(10_000),
        }),
      )
      .min(1, { message: '请至少处理一个岗位' })
      .max(5_000),
  })
  .superRefine((v, ctx) => {
    for (const [i, d] of v.decisions.entries()) {
      if (d.action === 'reduce' && d.headcount < 1)
        ctx.addIssue({ code: 'custom', path: ['decisions', i, 'headcount'], message: '核减后的招聘人数至少为 1' });
    }
    if (new Set(v.decisions.map((d) => d.positionId)).size !== v.decisions.length)
      ctx.addIssue({ code: 'custom', path: ['decisions'], message: '同一岗位只能有一个处理决定' });
  });
export type ApplyOpeningCheck = z.infer<typeof applyOpeningCheckSchema>;

export const switchPositionSchema = z.object({
  examId: z.number({ message: '考试编号有误' }).int().positive({ message: '考试编号有误' }),
  positionId: z.number({ message: '请选择改报岗位' }).int().positive({ message: '请选择改报岗位' }),
});

/** A payment event staff should know of (a bad signature, a wrong amount, an unknown order, a duplicate). */
export const paymentEventSchema = z.object({
  id: z.number().int(),
  provider: z.string(),
  orderNo: z.string(),
  kind: z.string(),
  detail: z.string(),
  at: z.string(),
});
