import { randomBytes } from 'node:crypto';
import {
  DEFAULT_MENU,
  DEFAULT_RETENTION_YEARS,
  DEFAULT_TIME_ZONE,
  PROFILE_FIELDS,
  type MenuItem,
  type OfficeSettings,
} from '@zhikaoyun/shared';
import type { Db } from '../db/database';
import { hashPassword } from '../lib/password';
import { seedDutyStaff } from './duty-staff';
import { plainText, sanitizeRichText } from '../lib/rich-text';
import { DEMO_NOTICES, DEMO_POSITIONS } from './data';
import { insertDemoPosition, insertExamDocuments, type DemoStageOptions } from './writes';
import type { DataCipher } from '../lib/crypto';
import { seedCloseoutDemo } from './closeout';
import { seedConfirmationDemo } from './confirmation';
import { seedTicketsDemo } from './tickets';
import { seedIdentityDemo } from './identity';
import { seedScoresDemo } from './scores';
import { AGREEMENT_TITLE, DEFAULT_WEBNAME, registrationAgreement } from '../modules/platform/offices/defaults';

const DAY = 86_400_000;

export interface SeedResult {
  seeded: boolean;
  /** Set only when the password was generated here: shown once, never stored in clear. */
  generatedAdminPassword?: string;
}

const DEMO_SETTINGS: OfficeSettings = {
  webname: DEFAULT_WEBNAME,
  contactPhone: '0571-87001234',
  contactEmail: 'kaowu@demo.zhikaoyun.cn',
  address: '浙江省杭州市西湖区文三路 100 号 人事考试中心',
  workHours: '工作日 9:00-12:00，13:30-17:00',
  icp: '浙ICP备00000000号',
  announcement: '2026 年度市属事业单位公开招聘工作人员报名进行中，请在报名截止前完成报名信息确认。',
  timeZone: DEFAULT_TIME_ZONE,
  staffTotpRequired: false,
  retentionYears: DEFAULT_RETENTION_YEARS,
};

const AGREEMENT = registrationAgreement('示范市人事考试中心', DEMO_SETTINGS.contactPhone);

const NOTICE = `<h3>示范市 2026 年度市属事业单位公开招聘工作人员公告</h3>
<p>根据《事业单位人事管理条例》及有关规定，经研究决定，2026 年度市属事业单位面向社会公开招聘工作人员。现将有关事项公告如下：</p>
<h4>一、招聘原则</h4>
<p>坚持德才兼备的用人标准，贯彻公开、平等、竞争、择优的原则。</p>
<h4>二、报考条件</h4>
<p>1. 具有中华人民共和国国籍，遵守宪法和法律；</p>
<p>2. 年龄 18 周岁以上、35 周岁以下（1990 年 1 月 1 日以后出生），具有硕士研究生及以上学历的可放宽至 40 周岁；</p>
<p>3. 具有岗位所需的学历、专业及其他资格条件，具体见《招聘岗位表》。</p>
<h4>三、报名方式</h4>
<p>本次招聘采取网上报名方式，考生登录本系统注册账号、阅读报考须知、填写报考信息并确认提交。每位考生限报一个岗位。</p>
<h4>四、资格审查</h4>
<p>资格审查贯穿招聘全过程。考生提交报名后，请及时登录系统查询审核结果；审核未通过的，可在报名期间按审核意见修改后重新提交。</p>`;

const PLEDGE = `<p>本人郑重承诺：</p>
<p>一、已认真阅读招聘公告及报考须知，理解并认可其内容，符合所报岗位的资格条件。</p>
<p>二、所填报的个人信息、学历学位、工作经历等全部真实、准确、有效，所提供的证明材料真实有效。</p>
<p>三、自觉遵守考试纪律，服从考试安排，不舞弊、不协助他人舞弊。</p>
<p>四、对违反以上承诺所造成的后果，本人自愿承担相应责任。</p>`;

const GUIDE = `<p>1. 注册：使用本人身份证号码注册账号，设置密码、密保问题和提示答案。</p>
<p>2. 报名：阅读报考须知并签署诚信承诺，填写报考信息，选择岗位后确认提交。</p>
<p>3. 审核：提交后状态为"待审核"，审核结果以系统显示为准；未通过的可在报名期内修改后重新提交。</p>
<p>4. 咨询：政策咨询请拨打 0571-87001234（工作日 9:00-12:00，13:30-17:00）。</p>`;

/** The demo exam asks these fields and requires the education ones (the fields a typical 事业单位 exam asks). */
const DEMO_EXAM_CONFIG = {
  fields: [...PROFILE_FIELDS],
  required: ['education', 'degree', 'school', 'major', 'graduationDate'],
};

/** Seeds the demo office (code `demo`) into an empty database; does nothing otherwise. */
export async function seedDemo(
  db: Db,
  opts: {
    adminPassword: string | undefined;
    now?: Date;
    /**
     * Given (development machines only): also the later stages with demo candidates: an exam in its
     * confirmation window, one at close-out (开考核定), one with admission tickets published and one
     * with its scores published (成绩查询, 面试名单).
     */
    confirmationDemo?: { cipher: DataCipher };
  },
): Promise<SeedResult> {
  const existing = await db.kysely.selectFrom('office').select('id').limit(1).executeTakeFirst();
  if (existing) return { seeded: false };

  const now = opts.now ?? new Date();
  const at = (days: number) => new Date(now.getTime() + days * DAY).toISOString();
  const stamp = now.toISOString();
  const generated = opts.adminPassword ? undefined : randomBytes(12).toString('base64url');
  const passwordHash = await hashPassword(opts.adminPassword ?? generated!);
  const menu: MenuItem[] = DEFAULT_MENU;

  await db.kysely.transaction().execute(async (trx) => {
    const office = await trx
      .insertInto('office')
      .values({
        code: 'demo',
        name: '示范市人事考试中心',
        settings: JSON.stringify(DEMO_SETTINGS),
        menu: JSON.stringify(menu),
        agreement_title: AGREEMENT_TITLE,
        agreement_content: AGREEMENT,
        agreement_updated_at: stamp,
        created_at: stamp,
        updated_at: stamp,
      })
      .returning('id')
      .executeTakeFirstOrThrow();

    const exams = [
      { name: '示范市 2026 年度市属事业单位公开招聘工作人员考试', start: -7, end: 14 },
      { name: '示范市 2027 年度中小学教师招聘考试', start: 30, end: 45 },
      { name: '示范市 2026 年度公务员考试录用（上半年）', start: -120, end: -100 },
    ];
    for (const [index, e] of exams.entries()) {
      const exam = await trx
        .insertInto('exam')
        .values({
          office_id: office.id,
          name: e.name,
          published: 1,
          registration_start: at(e.start),
          registration_end: at(e.end),
          review_start: at(e.start),
          review_end: at(e.end + 3),
          confirmation_start: at(e.end + 5),
          confirmation_end: at(e.end + 8),
          config: JSON.stringify(DEMO_EXAM_CONFIG),
          created_at: stamp,
          updated_at: stamp,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const docs = [
        {
          type: 'notice',
          title: index === 0 ? '招聘公告' : `${e.name}公告`,
          content: index === 0 ? NOTICE : `<p>${e.name}的公告正文请以正式发布版本为准。</p>`,
        },
        { type: 'pledge', title: '诚信报考承诺书', content: PLEDGE },
        { type: 'guide', title: '网上报名操作指南', content: GUIDE },
      ];
      // The open exam gets the full position table; the others a few, so each list has content.
      const positions = index === 0 ? DEMO_POSITIONS : DEMO_POSITIONS.filter((_, i) => i % 6 === index);
      for (const [i, p] of positions.entries()) {
        await insertDemoPosition(
          trx,
          office.id,
          exam.id,
          `${2026 + (index === 1 ? 1 : 0)}${String(index + 1).padStart(2, '0')}${String(i + 1).padStart(3, '0')}`,
          p,
          stamp,
        );
      }
      await insertExamDocuments(trx, office.id, exam.id, docs, stamp);
    }

    if (opts.confirmationDemo) {
      // The later stages of an exam's life, each an exam of its own: confirmation, tickets, scores, close-out.
      const stage: DemoStageOptions = {
        officeId: office.id,
        now,
        cipher: opts.confirmationDemo.cipher,
        config: JSON.stringify(DEMO_EXAM_CONFIG),
        docs: [{ type: 'notice', title: '招聘公告', content: NOTICE }],
        timeZone: DEMO_SETTINGS.timeZone,
      };
      await seedConfirmationDemo(trx, {
        ...stage,
        docs: [
          ...stage.docs,
          { type: 'pledge', title: '诚信报考承诺书', content: PLEDGE },
          { type: 'guide', title: '网上报名操作指南', content: GUIDE },
        ],
      });
      await seedTicketsDemo(db, trx, stage);
      await seedScoresDemo(db, trx, stage);
      await seedCloseoutDemo(trx, stage);
      await seedIdentityDemo(trx, stage);
    }

    for (const n of DEMO_NOTICES) {
      const content = sanitizeRichText(n.content);
      await trx
        .insertInto('notice')
        .values({
          office_id: office.id,
          title: n.title,
          summary: plainText(content),
          content,
          attachments: JSON.stringify(n.attachments ?? []),
          pinned: n.pinned ? 1 : 0,
          published: 1,
          published_at: at(-n.daysAgo),
          created_at: stamp,
          updated_at: stamp,
        })
        .execute();
    }

    await trx
      .insertInto('staff_user')
      .values({
        office_id: office.id,
        username: 'admin',
        password_hash: passwordHash,
        name: '系统管理员',
        role: 'admin',
        disabled: 0,
        password_set_at: stamp,
        created_at: stamp,
        updated_at: stamp,
      })
      .execute();
    await seedDutyStaff(trx, office.id, stamp);
  });

  return generated ? { seeded: true, generatedAdminPassword: generated } : { seeded: true };
}
