/**
 * The audit log's vocabulary: what the console's 审计日志 shows in its 操作 and 对象 columns.
 * Writers record one of `AUDIT_ACTIONS` (apps/server/test/audit-vocabulary.test.ts checks every
 * call site) and a target made by `auditTarget`; rows written before keep what they have and the
 * reader translates them (`auditActionLabel`, and the server's target labels accept `kind#id`).
 */
import { APPLICATION_TRANSITIONS } from '../registration/lifecycle';
import { OPENING_ACTION_LABEL } from '../confirmation/payments';
import { LATER_STAGE_TEXT, STAGE_LIST_TEXT } from '../scores/stages';

/**
 * The record an audited purge of old records (npm run purge-audit) leaves in the chain it
 * shortened, in an office's log and in the platform's: it holds the MAC of the last record removed.
 */
export const AUDIT_PURGE_ACTION = '清理审计记录';

/** Every action the log records, as the console shows it. */
export const AUDIT_ACTIONS: readonly string[] = [
  // Sign-in and settings
  '登录',
  '结束旧会话',
  '退出',
  '修改密码',
  '修改系统设置',
  '修改菜单',
  '修改消息设置',
  '修改常用不通过原因',
  // Staff
  '新建人员',
  '修改人员',
  '启用人员',
  '停用人员',
  // Second factor (两步验证)
  '开启两步验证',
  '使用恢复码登录',
  '重置两步验证',
  // Staff sign-in security (安全管理) and the audit log itself
  '解锁人员',
  '结束人员会话',
  '导出审计日志',
  // Exams, positions, notices, files
  '新建考试',
  '修改考试',
  '发布考试',
  '撤回考试',
  '修改考试文件',
  '上传附件',
  '新建岗位',
  '修改岗位',
  '删除岗位',
  '导入岗位',
  '导出岗位',
  '新建公告',
  '修改公告',
  '发布公告',
  '撤回公告',
  '删除公告',
  // Applications and review (each transition of an application is recorded under its label)
  ...Object.values(APPLICATION_TRANSITIONS).map((t) => t.label),
  '查看报名',
  '查看完整身份信息',
  '批量审核通过',
  '导出报名',
  // Candidates' own accounts and identity appeals
  '修改个人信息',
  '注销账号',
  '驳回身份申诉',
  '重置申诉账号',
  // Fees
  '查看减免证明',
  '减免不通过',
  '退费',
  '上传对账单',
  '对账补记',
  '导出缴费记录',
  ...Object.values(OPENING_ACTION_LABEL),
  // Arrangement and tickets
  '保存科目',
  '保存考点',
  '导入考点',
  '修改考场座位数',
  '编排考场',
  '补排考场',
  '调动考生座位',
  '发布准考证',
  '导出考场编排',
  '下载考场签到表',
  '验证准考证',
  // Notifications
  '发送考务通知',
  '重发短信',
  // The log itself
  AUDIT_PURGE_ACTION,
  // Scores and later stages
  '下载成绩表模板',
  '导入成绩',
  '重新导入成绩',
  '设置成绩规则',
  '发布成绩',
  '导出成绩',
  '答复成绩复核',
  '导出面试名单',
  '记录放弃面试',
  '面试递补',
  '下载面试成绩表模板',
  '导入面试成绩',
  '重新导入面试成绩',
  '设置综合成绩比例',
  ...Object.values(STAGE_LIST_TEXT).map((t) => `公布${t}`),
  ...Object.values(LATER_STAGE_TEXT).map((t) => `记录${t}结果`),
  // An exam's end: its archive, retention's purge and dormant accounts (issue 36)
  '生成考试归档',
  '下载考试归档',
  '匿名化过期个人信息',
  '删除长期未使用账号',
  '删除过期身份申诉',
];

/** Keys some actions were written under before the table; old rows keep them, the console shows the label. */
const LEGACY_AUDIT_ACTIONS: Readonly<Record<string, string>> = {
  'candidate.deleteAccount': '注销账号',
  'candidate.updateUserInfo': '修改个人信息',
  'appeal.reject': '驳回身份申诉',
  'appeal.reset': '重置申诉账号',
};

/** What the console shows for a stored action (a label, or an old key translated). */
export function auditActionLabel(stored: string): string {
  return LEGACY_AUDIT_ACTIONS[stored] ?? stored;
}

/** The kinds of thing an action is done on. */
export const AUDIT_TARGET_KINDS = [
  'exam',
  'position',
  'notice',
  'staff',
  'application',
  'applications',
  'feeWaiver',
  'payment',
  'statement',
  'office',
  'appeal',
  'candidate',
  'sms',
  'attachment',
  'announcement',
  'exam_subject',
  'exam_site',
  'exam_room',
  'auditLog',
] as const;
export type AuditTargetKind = (typeof AUDIT_TARGET_KINDS)[number];

/** One format for every target: `kind:id` (no personal data; the console names the thing). */
export type AuditTarget = `${AuditTargetKind}:${string}`;

export function auditTarget(kind: AuditTargetKind, id: number | string): AuditTarget {
  return `${kind}:${id}`;
}
