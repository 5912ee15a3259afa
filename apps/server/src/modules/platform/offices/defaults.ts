import { DEFAULT_RETENTION_YEARS, DEFAULT_TIME_ZONE, type OfficeSettings } from '@zhikaoyun/shared';

/**
 * What every office starts with, the demo office and every office the platform creates: the site's
 * name and the registration agreement (and shared DEFAULT_MENU, the bottom menu). An office's own details (phone, address,
 * announcement) are its staff's to fill in on 系统设置.
 */

export const DEFAULT_WEBNAME = '智考云考试报名系统';
export const AGREEMENT_TITLE = '智考云考试报名系统用户注册协议';

/** A new office's settings: the site's name and the time zone, the rest empty until its staff fill them in. */
export const BLANK_OFFICE_SETTINGS: OfficeSettings = {
  webname: DEFAULT_WEBNAME,
  contactPhone: '',
  contactEmail: '',
  address: '',
  workHours: '',
  icp: '',
  announcement: '',
  timeZone: DEFAULT_TIME_ZONE,
  staffTotpRequired: false,
  retentionYears: DEFAULT_RETENTION_YEARS,
};

/** The registration agreement, naming the office (and its phone, when it has one). */
export function registrationAgreement(officeName: string, phone: string | null): string {
  const ask = phone ? `如有疑问，请在工作时间拨打咨询电话 ${phone}。` : '如有疑问，请在工作时间联系考试机构。';
  return `<h3>一、总则</h3>
<p>本系统由${officeName}（以下简称"考试机构"）提供，用于各类招聘考试的网上报名。考生注册账号、登录并使用本系统，即表示已阅读并同意本协议。</p>
<h3>二、账号与实名</h3>
<p>1. 考生须使用本人有效居民身份证号码注册，一个身份证号码只能注册一个账号。</p>
<p>2. 考生应如实填写姓名、手机号码等信息，并妥善保管密码、密保问题及提示答案，因保管不善造成的后果由考生本人承担。</p>
<h3>三、个人信息保护</h3>
<p>考试机构依照《中华人民共和国个人信息保护法》收集和使用考生的个人信息，仅用于考试报名、资格审查、考试组织和录用工作，不会向无关第三方提供。身份证号码等敏感个人信息加密存储，在页面与导出中脱敏显示。</p>
<h3>四、诚信报考</h3>
<p>考生应对所填报信息的真实性、准确性负责。凡弄虚作假的，一经查实，即取消考试或聘用资格，并按照《事业单位公开招聘违纪违规行为处理规定》处理。</p>
<h3>五、其他</h3>
<p>本协议的解释权归考试机构所有。${ask}</p>`;
}
