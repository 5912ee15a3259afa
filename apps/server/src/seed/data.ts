import { OPEN_REQUIREMENTS, type PositionRequirements } from '@zhikaoyun/shared';

/** The demo office's positions and notices: realistic, varied, some open to all. */

export type DemoPosition = { name: string; unit: string; headcount: number; description: string; req: Partial<PositionRequirements> };
type P = DemoPosition;

const UNITS = {
  edu: '市教育局直属学校',
  health: '市卫生健康委员会下属医院',
  data: '市大数据发展管理中心',
  finance: '市财政局财政投资评审中心',
  water: '市水利局水文站',
  culture: '市文化广电旅游局图书馆',
  street: '西湖区街道社区服务中心',
  lab: '市市场监管局检验检测院',
};

export const DEMO_POSITIONS: P[] = [
  {
    name: '初中语文教师',
    unit: UNITS.edu,
    headcount: 3,
    description: '承担初中语文教学及班主任工作。',
    req: {
      minEducation: '本科',
      majors: ['汉语言文学', '中国语言文学', '学科教学（语文）'],
      maxAge: 35,
      note: '须具有初级中学及以上语文教师资格证。',
    },
  },
  {
    name: '初中数学教师',
    unit: UNITS.edu,
    headcount: 3,
    description: '承担初中数学教学工作。',
    req: { minEducation: '本科', majors: ['数学与应用数学', '学科教学（数学）', '统计学'], maxAge: 35, note: '须具有相应教师资格证。' },
  },
  {
    name: '小学英语教师',
    unit: UNITS.edu,
    headcount: 2,
    description: '承担小学英语教学工作。',
    req: { minEducation: '本科', majors: ['英语', '学科教学（英语）'], maxAge: 35 },
  },
  {
    name: '小学体育教师',
    unit: UNITS.edu,
    headcount: 2,
    description: '承担小学体育教学及课外训练。',
    req: { minEducation: '大专', majors: ['体育教育', '运动训练', '社会体育指导与管理'], maxAge: 30 },
  },
  {
    name: '心理健康教师',
    unit: UNITS.edu,
    headcount: 1,
    description: '负责学生心理辅导与心理健康课程。',
    req: { minEducation: '硕士研究生', majors: ['心理学', '应用心理学', '心理健康教育'], maxAge: 40 },
  },
  {
    name: '校医',
    unit: UNITS.edu,
    headcount: 1,
    description: '负责学校卫生保健工作。',
    req: { minEducation: '大专', majors: ['临床医学', '护理学'], maxAge: 35 },
  },
  {
    name: '临床医师（内科）',
    unit: UNITS.health,
    headcount: 4,
    description: '从事内科临床诊疗工作。',
    req: { minEducation: '本科', majors: ['临床医学', '内科学'], maxAge: 35, note: '须取得执业医师资格证。' },
  },
  {
    name: '临床医师（儿科）',
    unit: UNITS.health,
    headcount: 2,
    description: '从事儿科临床诊疗工作。',
    req: { minEducation: '本科', majors: ['临床医学', '儿科学'], maxAge: 40 },
  },
  {
    name: '护理',
    unit: UNITS.health,
    headcount: 6,
    description: '从事临床护理工作，需轮值夜班。',
    req: { minEducation: '大专', majors: ['护理学', '护理'], maxAge: 30 },
  },
  {
    name: '药剂',
    unit: UNITS.health,
    headcount: 2,
    description: '从事药房调剂与药品管理工作。',
    req: { minEducation: '本科', majors: ['药学', '临床药学'], maxAge: 35 },
  },
  {
    name: '医学影像技师',
    unit: UNITS.health,
    headcount: 2,
    description: '从事放射、CT 检查技术工作。',
    req: { minEducation: '大专', majors: ['医学影像技术', '医学影像学'], maxAge: 35 },
  },
  { name: '病案管理', unit: UNITS.health, headcount: 1, description: '负责病案整理与统计。', req: { minEducation: '大专', maxAge: 35 } },
  {
    name: '软件开发',
    unit: UNITS.data,
    headcount: 3,
    description: '负责政务信息系统开发与维护。',
    req: { minEducation: '本科', majors: ['计算机科学与技术', '软件工程', '计算机'], maxAge: 35 },
  },
  {
    name: '数据分析',
    unit: UNITS.data,
    headcount: 2,
    description: '负责公共数据的治理、分析与报告。',
    req: { minEducation: '硕士研究生', majors: ['统计学', '数据科学与大数据技术', '应用统计'], maxAge: 35 },
  },
  {
    name: '网络安全管理',
    unit: UNITS.data,
    headcount: 2,
    description: '负责网络与数据安全运维。',
    req: {
      minEducation: '本科',
      majors: ['网络空间安全', '信息安全', '计算机科学与技术'],
      maxAge: 35,
      workYears: 2,
      note: '须有 2 年以上网络安全相关工作经历。',
    },
  },
  {
    name: '综合管理',
    unit: UNITS.data,
    headcount: 1,
    description: '负责办公室文字材料与综合事务。',
    req: { minEducation: '本科', maxAge: 35, politicalStatus: '中共党员' },
  },
  {
    name: '财务会计',
    unit: UNITS.finance,
    headcount: 2,
    description: '负责单位会计核算与财务管理。',
    req: { minEducation: '本科', majors: ['会计学', '财务管理', '审计学'], maxAge: 35 },
  },
  {
    name: '工程造价评审',
    unit: UNITS.finance,
    headcount: 3,
    description: '负责政府投资项目造价评审。',
    req: { minEducation: '本科', majors: ['工程造价', '工程管理', '土木工程'], maxAge: 40, workYears: 3 },
  },
  {
    name: '审计',
    unit: UNITS.finance,
    headcount: 1,
    description: '负责内部审计与绩效评价。',
    req: { minEducation: '本科', majors: ['审计学', '会计学'], maxAge: 35, politicalStatus: '中共党员' },
  },
  {
    name: '水文监测',
    unit: UNITS.water,
    headcount: 2,
    description: '负责水文站点的水位、流量监测，需野外作业。',
    req: {
      minEducation: '大专',
      majors: ['水文与水资源工程', '水利水电工程', '水文'],
      maxAge: 30,
      sex: '男',
      note: '需长期野外作业，适合男性。',
    },
  },
  {
    name: '水质检测',
    unit: UNITS.water,
    headcount: 1,
    description: '负责水质采样与化验。',
    req: { minEducation: '本科', majors: ['环境工程', '化学', '应用化学'], maxAge: 35 },
  },
  {
    name: '图书编目',
    unit: UNITS.culture,
    headcount: 2,
    description: '负责文献采访与编目。',
    req: { minEducation: '本科', majors: ['图书馆学', '信息资源管理', '档案学'], maxAge: 35 },
  },
  { name: '阅读推广', unit: UNITS.culture, headcount: 1, description: '策划组织全民阅读活动。', req: { minEducation: '本科', maxAge: 35 } },
  {
    name: '文物保护',
    unit: UNITS.culture,
    headcount: 1,
    description: '负责馆藏古籍与地方文献保护。',
    req: { minEducation: '硕士研究生', majors: ['考古学', '文物与博物馆学', '历史学'], maxAge: 40 },
  },
  {
    name: '社区工作者（一）',
    unit: UNITS.street,
    headcount: 5,
    description: '从事社区服务与网格管理工作。',
    req: { minEducation: '大专', maxAge: 35 },
  },
  {
    name: '社区工作者（二）',
    unit: UNITS.street,
    headcount: 3,
    description: '面向退役军人等定向招聘，从事社区服务。',
    req: { minEducation: '高中（中专）', maxAge: 40 },
  },
  {
    name: '社会救助经办',
    unit: UNITS.street,
    headcount: 2,
    description: '负责低保、临时救助等事务经办。',
    req: { minEducation: '本科', majors: ['社会工作', '社会学', '公共事业管理'], maxAge: 35 },
  },
  {
    name: '综合文秘',
    unit: UNITS.street,
    headcount: 1,
    description: '负责公文写作与信息宣传。',
    req: { minEducation: '本科', majors: ['汉语言文学', '新闻学', '秘书学'], maxAge: 35, politicalStatus: '中共党员' },
  },
  { name: '行政辅助', unit: UNITS.street, headcount: 2, description: '负责窗口接待与事务辅助，专业不限。', req: {} },
  {
    name: '食品检验',
    unit: UNITS.lab,
    headcount: 3,
    description: '负责食品理化与微生物检验。',
    req: { minEducation: '本科', majors: ['食品科学与工程', '食品质量与安全', '微生物学'], maxAge: 35 },
  },
  {
    name: '计量检定',
    unit: UNITS.lab,
    headcount: 2,
    description: '负责计量器具检定与校准。',
    req: { minEducation: '本科', majors: ['测控技术与仪器', '计量', '电气工程及其自动化'], maxAge: 35 },
  },
  {
    name: '特种设备检验',
    unit: UNITS.lab,
    headcount: 2,
    description: '负责锅炉、电梯等特种设备检验，需现场作业。',
    req: { minEducation: '本科', majors: ['机械设计制造及其自动化', '过程装备与控制工程', '机械工程'], maxAge: 35, workYears: 1 },
  },
  {
    name: '质量管理',
    unit: UNITS.lab,
    headcount: 1,
    description: '负责检验检测质量体系运行。',
    req: { minEducation: '硕士研究生', maxAge: 40 },
  },
  {
    name: '实验室辅助',
    unit: UNITS.lab,
    headcount: 2,
    description: '负责样品收发与实验室辅助工作，专业不限。',
    req: { minEducation: '大专' },
  },
];

export function positionRequirements(p: P): PositionRequirements {
  return { ...OPEN_REQUIREMENTS, ...p.req };
}

export const DEMO_NOTICES: {
  title: string;
  content: string;
  pinned?: boolean;
  daysAgo: number;
  attachments?: { name: string; url: string }[];
}[] = [
  {
    title: '关于 2026 年度市属事业单位公开招聘工作人员网上报名的公告',
    pinned: true,
    daysAgo: 7,
    content:
      '<p>2026 年度市属事业单位公开招聘工作人员网上报名现已开始。请考生登录本系统，阅读报考须知并签署诚信承诺后，填写报考信息、选择岗位并确认提交。</p><p>每位考生限报一个岗位。报名期间可随时查询审核状态；审核未通过的，可按审核意见修改后重新提交。</p><p>报名截止前最后两天访问量较大，请尽早完成报名。</p>',
    attachments: [{ name: '2026 年度市属事业单位公开招聘岗位表', url: '/job-positions-only-read' }],
  },
  {
    title: '网上报名常见问题解答',
    daysAgo: 6,
    content:
      '<h4>一、身份证号码提示已注册怎么办？</h4><p>请直接登录；忘记密码的，可通过登录页的"忘记密码"以密保问题找回。如确认本人从未注册，请拨打咨询电话。</p><h4>二、照片有什么要求？</h4><p>近期免冠正面证件照，JPG 或 PNG 格式，不超过 5 MB。</p><h4>三、填写的信息会丢失吗？</h4><p>报考信息边填边自动保存，换一台设备登录也能继续填写。</p>',
  },
  {
    title: '关于资格审查工作安排的说明',
    daysAgo: 5,
    content:
      '<p>资格审查与报名同步进行，一般在考生提交后 2 个工作日内完成。审核结果以本系统显示为准，请考生及时登录查询。</p><p>审核未通过的，系统将显示具体原因。</p>',
  },
  {
    title: '2027 年度中小学教师招聘考试预告',
    daysAgo: 3,
    content:
      '<p>2027 年度中小学教师招聘考试预计于下月开始报名，具体岗位与报考条件以正式公告为准。请有意报考的考生提前准备教师资格证等材料。</p>',
  },
  {
    title: '考试防疫与考场纪律提示',
    daysAgo: 2,
    content:
      '<p>考生须携带本人有效居民身份证和准考证参加考试，严禁携带手机等通讯工具进入考场。违反考场纪律的，按照《事业单位公开招聘违纪违规行为处理规定》处理。</p>',
  },
  {
    title: '关于谨防招聘考试诈骗的提醒',
    daysAgo: 1,
    content:
      '<p>本次招聘不举办也不委托任何机构举办考试辅导培训班。凡以考试机构名义收取费用、承诺"内部指标"的，均属诈骗行为，请考生提高警惕。</p>',
  },
];
