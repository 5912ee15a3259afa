import { z } from 'zod';

/*
 * How a rule that carries no message of its own reads: a sentence about the field, in the words
 * of the form a clerk or candidate filled in (「科目 2 的满分须为数字」, 「合格分数线不能小于 0」),
 * never the validator's own (「无效输入：期望数字，实际接收 undefined」). The label comes from the
 * field's key in the request; a rule's own message wins over these, and the server prefixes it
 * with the list item it belongs to (issueText).
 */

/** The Chinese name of every field a request carries (test/field-labels.test.ts holds every route's keys to it). */
export const FIELD_LABELS: Readonly<Record<string, string>> = {
  action: '处理方式',
  address: '地址',
  after: '开始日期',
  agree: '同意协议',
  all: '全部已读',
  announcement: '公告内容',
  answer: '提示答案',
  applicationId: '报名编号',
  applicationIds: '报名编号',
  attachments: '附件',
  audience: '发送对象',
  before: '截止日期',
  bonusEnabled: '加分设置',
  captcha: '图形验证码',
  captchaId: '图形验证码',
  city: '城市',
  code: '代码',
  config: '报名表设置',
  confirm: '确认内容',
  confirmationEnd: '报名确认截止时间',
  confirmationStart: '报名确认开始时间',
  consent: '个人信息授权',
  contactEmail: '联系邮箱',
  contactPhone: '联系电话',
  content: '内容',
  date: '日期',
  decision: '处理结果',
  decisions: '岗位处理',
  degree: '学位',
  description: '说明',
  disabled: '停用状态',
  dryRun: '检查方式',
  education: '学历',
  eligibleOnly: '只看可报岗位',
  email: '电子邮箱',
  endAt: '结束时间',
  examCode: '考试代码',
  examId: '考试',
  examRules: '考试规则',
  fee: '报名费',
  fields: '报名信息项',
  final: '不得再报',
  form: '报名表',
  fullMarks: '满分',
  graduationDate: '毕业时间',
  headcount: '招聘人数',
  hosts: '域名',
  icon: '图标',
  icp: '备案号',
  id: '编号',
  idno: '身份证号',
  ids: '消息',
  interviewRatio: '面试比例',
  interviewRatioTable: '面试比例表',
  interviewWeight: '面试成绩所占比例',
  key: '标识',
  keyword: '关键词',
  major: '专业',
  majors: '专业要求',
  maxAge: '年龄上限',
  maxHeadcount: '招聘人数上限',
  menu: '菜单',
  minEducation: '最低学历',
  mobile: '手机号',
  name: '名称',
  newPassword: '新密码',
  newScore: '更正后的分数',
  note: '备注',
  officeCode: '考试机构',
  officeId: '考试机构',
  oldPassword: '原密码',
  openingRatio: '开考比例',
  orderNo: '订单号',
  outcome: '结果',
  page: '页码',
  pageSize: '每页条数',
  passLine: '合格分数线',
  password: '密码',
  path: '路径',
  phoneVerification: '手机验证',
  pinned: '置顶',
  pledge: '诚信承诺',
  politicalStatus: '政治面貌',
  positionId: '岗位',
  printEnd: '准考证打印截止时间',
  printStart: '准考证打印开始时间',
  provider: '支付渠道',
  published: '发布状态',
  purpose: '验证码用途',
  q: '查询内容',
  queryStart: '成绩查询开始时间',
  question: '密码提示问题',
  ratio: '比例',
  reason: '理由',
  reasons: '常用理由',
  recoveryCode: '恢复码',
  registrationEnd: '报名截止时间',
  registrationStart: '报名开始时间',
  required: '必填项',
  requirements: '报考条件',
  result: '结果',
  results: '结果',
  reviewEnd: '审核截止时间',
  reviewId: '复核申请',
  reviewStart: '审核开始时间',
  role: '角色',
  roomId: '考场',
  rooms: '考场数',
  school: '毕业院校',
  seatNo: '座位号',
  seats: '座位数',
  seatsPerRoom: '每考场座位数',
  seed: '编排序号',
  sex: '性别',
  siteCityChoice: '考点城市选择',
  siteId: '考点',
  sms: '短信',
  smsCode: '短信验证码',
  staffTotpRequired: '两步验证要求',
  stage: '环节',
  startAt: '开始时间',
  status: '状态',
  subjectId: '科目编号',
  subjectIds: '考试科目',
  subjectPassLines: '科目合格线',
  subjects: '科目',
  submittedAt: '提交时间',
  summary: '摘要',
  switchEnd: '改报截止时间',
  switchStart: '改报开始时间',
  ticketNo: '准考证号',
  ticketTemplate: '准考证号规则',
  timeZone: '时区',
  title: '标题',
  totp: '动态验证码',
  type: '类型',
  unit: '招聘单位',
  units: '单位',
  url: '链接',
  username: '用户名',
  version: '版本',
  waiverCategories: '减免类别',
  waiverId: '减免申请',
  webname: '网站名称',
  weight: '权重',
  workExperience: '工作经历',
  workHours: '工作时间',
  workYears: '工作年限',
  faceVerify: '人脸核验',
  photoBackground: '证件照背景颜色',
  reminderKinds: '截止提醒',
  retentionYears: '个人信息保存年限',
  token: '核验链接',
  // The face check's start page and the provider's notify (decision 034).
  metaInfo: '浏览器环境信息',
  callbackToken: '核验凭据',
  certifyId: '核验编号',
};

/** One item of a list field, numbered from 1 as the form shows it. */
const ITEM_LABELS: Readonly<Record<string, (n: number) => string>> = {
  subjects: (n) => `科目 ${n}`,
  subjectPassLines: (n) => `第 ${n} 个科目合格线`,
  interviewRatioTable: (n) => `面试比例表第 ${n} 档`,
  results: (n) => `第 ${n} 条结果`,
  decisions: (n) => `第 ${n} 个岗位的处理`,
  fields: (n) => `第 ${n} 个报名信息项`,
  required: (n) => `第 ${n} 个必填项`,
  menu: (n) => `第 ${n} 个菜单项`,
  hosts: (n) => `第 ${n} 个域名`,
  attachments: (n) => `第 ${n} 个附件`,
  applicationIds: (n) => `第 ${n} 个报名`,
  majors: (n) => `第 ${n} 个专业`,
  subjectIds: (n) => `第 ${n} 个考试科目`,
  units: (n) => `第 ${n} 个单位`,
  ids: (n) => `第 ${n} 条消息`,
  waiverCategories: (n) => `第 ${n} 个减免类别`,
};

const ROOT_LABEL = '提交的内容';

const itemLabel = (key: string, n: number) => ITEM_LABELS[key]?.(n) ?? `${FIELD_LABELS[key] ?? ROOT_LABEL}第 ${n} 项`;

type Path = readonly PropertyKey[];

/** The innermost list item a path lies in (「科目 2」), or '' outside any list. */
export function issueContext(path: Path): string {
  let context = '';
  path.forEach((seg, i) => {
    const next = path[i + 1];
    if (typeof seg === 'string' && typeof next === 'number' && i + 2 < path.length) context = itemLabel(seg, next + 1);
  });
  return context;
}

/** A field's name as a sentence names it: ['subjects', 1, 'fullMarks'] → 「科目 2 的满分」. */
export function fieldLabel(path: Path): string {
  let leaf = ROOT_LABEL;
  path.forEach((seg, i) => {
    if (typeof seg !== 'string') return;
    const next = path[i + 1];
    if (typeof next === 'number') {
      if (i + 2 >= path.length) leaf = itemLabel(seg, next + 1);
    } else leaf = FIELD_LABELS[seg] ?? leaf;
  });
  const context = issueContext(path);
  return context ? `${context} 的${leaf}` : leaf;
}

/** The message as the person reads it: a rule's own message inside a list gets the item it is about. */
export function issueText(path: Path, message: string): string {
  const context = issueContext(path);
  return context && !message.includes(context) ? `${context}：${message}` : message;
}

const TYPE_TEXT: Readonly<Record<string, string>> = {
  number: '数字',
  int: '整数',
  nan: '数字',
  bigint: '整数',
  string: '文字',
  boolean: '“是”或“否”',
  date: '日期',
  array: '列表',
};

type Issue = z.core.$ZodRawIssue;

function sizeText(issue: { origin?: string }, n: number | bigint, small: boolean): string {
  switch (issue.origin) {
    case 'string':
      return small ? `至少 ${n} 个字` : `最多 ${n} 个字`;
    case 'array':
    case 'set':
      return small ? `至少要有 ${n} 项` : `最多 ${n} 项`;
    case 'file':
      return small ? `不能为空` : `不能超过 ${n} 字节`;
    case 'date':
      return small ? `不能早于 ${String(n)}` : `不能晚于 ${String(n)}`;
    default:
      return '';
  }
}

/** The sentence for an issue whose rule has no message: the field's name and what it must be. */
export function describeIssue(issue: Issue): string {
  const label = fieldLabel(issue.path ?? []);
  const missing = issue.input === undefined || issue.input === null || issue.input === '';
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.expected === 'object') return path0(issue) ? `${label}格式有误，请刷新页面后重试` : `${label}格式有误`;
      const type = TYPE_TEXT[issue.expected];
      if (!type) return `${label}格式有误`;
      if (missing && issue.expected !== 'boolean' && issue.expected !== 'array') return `${chosen(issue) ? '请选择' : '请填写'}${label}`;
      return `${label}须为${type}`;
    }
    case 'too_small': {
      if (issue.origin === 'string' && Number(issue.minimum) <= 1) return `请填写${label}`;
      const size = sizeText(issue, issue.minimum, true);
      if (size) return `${label}${size}`;
      return issue.inclusive ? `${label}不能小于 ${issue.minimum}` : `${label}须大于 ${issue.minimum}`;
    }
    case 'too_big': {
      const size = sizeText(issue, issue.maximum, false);
      if (size) return `${label}${size}`;
      return issue.inclusive ? `${label}不能超过 ${issue.maximum}` : `${label}须小于 ${issue.maximum}`;
    }
    case 'invalid_format':
      if (issue.format === 'email') return `${label}须为正确的电子邮箱地址`;
      if (issue.format === 'url') return `${label}须为正确的网址`;
      if (issue.format === 'datetime' || issue.format === 'date' || issue.format === 'time') return `${label}的时间格式有误`;
      return `${label}格式有误`;
    case 'invalid_value':
      return missing ? `请选择${label}` : `${label}不在可选范围内`;
    case 'not_multiple_of':
      return `${label}须为 ${issue.divisor} 的整数倍`;
    case 'unrecognized_keys':
      return `${label}含有无法识别的项，请刷新页面后重试`;
    default:
      return `${label}有误`;
  }
}

const path0 = (issue: Issue) => (issue.path ?? []).length === 0;

/** An id the form picks from a list (考场, 考点): missing, it is chosen, not typed. */
function chosen(issue: Issue): boolean {
  const key = issue.path?.[issue.path.length - 1];
  return typeof key === 'string' && key.endsWith('Id') && !(FIELD_LABELS[key] ?? '').endsWith('编号');
}

/**
 * Zod's messages in Chinese sentences, for the rules that carry no message of their own. Called
 * once by each entry point (server, web), so that importing the schemas stays free of side effects.
 */
export function setChineseZodMessages(): void {
  z.config({ localeError: describeIssue });
}
